import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres } from '../../src/lib/db/postgres';

/** TEST_DATABASE_URL: the PostgreSQL the PostgreSQL tests use; each test file works in its own schema. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface TestSchema {
  url: string;
  schema: string;
  /** A pool and Kysely instance whose search_path is this schema; drop() closes any left open. */
  open(): ReturnType<typeof openPostgres>;
  /** Closes what open() opened, then drops the schema and everything in it. */
  drop(): Promise<void>;
}

/**
 * Creates a throwaway schema (ct_<random>) so test files running side by side never see each other's
 * tables. PostgreSQL not running is a failure, never a skip: a skipped suite would hide that the
 * PostgreSQL path went untested.
 */
export async function createTestSchema(): Promise<TestSchema> {
  const url = TEST_DATABASE_URL;
  const schema = `ct_${randomBytes(6).toString('hex')}`;
  await admin(url, `CREATE SCHEMA ${schema}`);
  const opened: ReturnType<typeof openPostgres>[] = [];
  return {
    url,
    schema,
    open() {
      const handle = openPostgres(url, { schema });
      let closing: Promise<void> | undefined;
      // Closing twice (the test, then drop()) must not end the pool twice: pg throws on that.
      const once = { ...handle, close: () => (closing ??= handle.close()) };
      opened.push(once);
      return once;
    },
    async drop() {
      await Promise.all(opened.map((handle) => handle.close()));
      await admin(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${withoutPassword(url)} (${(error as Error).message}). The PostgreSQL tests need it: ` +
        'start one (e.g. `docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust ' +
        '-e POSTGRES_DB=test postgres:15`, or `pg_ctlcluster 15 main start`) or point TEST_DATABASE_URL at one.',
      { cause: error },
    );
  }
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'TEST_DATABASE_URL';
  }
}
