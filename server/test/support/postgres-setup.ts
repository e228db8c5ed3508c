import { afterAll } from 'vitest';
import { dropFileDatabase } from './postgres';
import { dropTestSchemas } from './test-server';

/**
 * The server-pg project's setup file: the PostgreSQL schemas a test file's servers kept (a DATA_DIR the
 * test gave, for a restart) are dropped when the file is done, then the file's own database.
 */
afterAll(async () => {
  await dropTestSchemas();
  await dropFileDatabase();
});
