import { afterAll } from 'vitest';
import { dropTestSchemas } from './test-server';

/**
 * The server-pg project's setup file: the PostgreSQL schemas a test file's servers kept (a DATA_DIR the
 * test gave, for a restart) are dropped when the file is done.
 */
afterAll(async () => {
  await dropTestSchemas();
});
