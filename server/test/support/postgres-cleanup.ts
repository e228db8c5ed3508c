import { afterAll } from 'vitest';
import { dropFileDatabase } from './postgres';

/**
 * A setup file of the projects that use PostgreSQL: drops the test file's own database (support/postgres.ts)
 * once the file is done, after the file's own afterAll hooks (setup files' hooks run last).
 */
afterAll(async () => {
  await dropFileDatabase();
});
