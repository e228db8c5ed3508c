import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres } from '../../src/lib/db/postgres';

/**
 * The PostgreSQL the PostgreSQL tests use: the environment's TEST_DATABASE_URL, or 127.0.0.1:5432/test. Its
 * role must be allowed to create databases (the `postgres` superuser of a stock install or image is).
 */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/**
 * What postgres-global.ts (the projects' globalSetup) hands the test files of one `vitest run`: the run's
 * id, which names every database the run makes (`ct_<run>_…`, dropped at its end whatever is left), and a
 * database whose schema `ct_template` the migrations have been run on, when PostgreSQL answered then.
 */
export interface PostgresRun {
  run: string;
  template?: { database: string; migrations: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    ctPostgres: PostgresRun | undefined;
  }
}

/** The schema migrated in the template database; renamed in each copy. */
export const TEMPLATE_SCHEMA = 'ct_template';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Outside `vitest run` with the globalSetup (a project without it): a run of this process alone. */
const RUN: PostgresRun = injected() ?? { run: hex(4) };

function injected(): PostgresRun | undefined {
  try {
    return inject('ctPostgres');
  } catch {
    return undefined;
  }
}

/** `url` with its database replaced. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * This test file's own database (one name per worker process; the files a worker runs one after another
 * each create it with their first schema and drop it when done: postgres-cleanup.ts). Schemas of one
 * database are seen by every connection to it, and Kysely's migrator reads them all (its introspection
 * calls has_schema_privilege and pg_get_serial_sequence on each): a schema another file dropped in
 * between failed that read with `schema "ct_…" does not exist`. Files running side by side therefore
 * never share a database.
 */
export const TEST_DATABASE_URL = databaseUrl(POSTGRES_URL, `ct_${RUN.run}_f${hex(4)}`);
const FILE_DATABASE = new URL(TEST_DATABASE_URL).pathname.slice(1);

let fileDatabase: Promise<void> | undefined;

function ensureFileDatabase(): Promise<void> {
  fileDatabase ??= admin(POSTGRES_URL, `CREATE DATABASE ${FILE_DATABASE}`).catch((error: unknown) => {
    fileDatabase = undefined;
    if ((error as { code?: string }).code !== '42501') throw error;
    throw new Error(
      `the role of ${withoutPassword(POSTGRES_URL)} may not create databases: each PostgreSQL test file ` +
        'works in a database of its own (ALTER ROLE … CREATEDB, or a superuser)',
      { cause: error },
    );
  });
  return fileDatabase;
}

/** Drops this file's database, if it made one (postgres-cleanup.ts, after the file's own afterAll hooks). */
export async function dropFileDatabase(): Promise<void> {
  if (!fileDatabase) return;
  const made = fileDatabase;
  fileDatabase = undefined;
  try {
    await made;
  } catch {
    return;
  }
  await admin(POSTGRES_URL, `DROP DATABASE IF EXISTS ${FILE_DATABASE} WITH (FORCE)`);
}

export interface TestSchema {
  url: string;
  schema: string;
  /** A pool and Kysely instance whose search_path is this schema; drop() closes any left open. */
  open(): ReturnType<typeof openPostgres>;
  /** Closes what open() opened, then drops the schema and everything in it. */
  drop(): Promise<void>;
}

export interface TestSchemaOptions {
  /**
   * The schema is for a server, which migrates it at start: it may come migrated already, as a copy of the
   * run's template (a database of its own, `url` then names it), which spares each server the ~0.3 s the
   * migrations take. Without a template, or when the migrations changed since it was made (watch mode), a
   * fresh schema as without the option.
   */
  migrated?: boolean;
}

/**
 * Creates a throwaway schema (ct_<random>) so tests never see each other's tables: in this file's own
 * database (TEST_DATABASE_URL), or for a server (`migrated`) in a migrated copy of its own. PostgreSQL not
 * running is a failure, never a skip: a skipped suite would hide that the PostgreSQL path went untested.
 */
export async function createTestSchema(options: TestSchemaOptions = {}): Promise<TestSchema> {
  const schema = `ct_${hex(6)}`;
  const template = options.migrated ? usableTemplate() : undefined;
  if (template) {
    const database = `ct_${RUN.run}_s${hex(5)}`;
    await admin(POSTGRES_URL, `CREATE DATABASE ${database} TEMPLATE ${template}`);
    const url = databaseUrl(POSTGRES_URL, database);
    try {
      await admin(url, `ALTER SCHEMA ${TEMPLATE_SCHEMA} RENAME TO ${schema}`);
    } catch (error) {
      await admin(POSTGRES_URL, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      throw error;
    }
    return testSchema(url, schema, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`, POSTGRES_URL);
  }
  await ensureFileDatabase();
  await admin(TEST_DATABASE_URL, `CREATE SCHEMA ${schema}`);
  return testSchema(TEST_DATABASE_URL, schema, `DROP SCHEMA IF EXISTS ${schema} CASCADE`, TEST_DATABASE_URL);
}

function testSchema(url: string, schema: string, dropStatement: string, dropOn: string): TestSchema {
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
      await admin(dropOn, dropStatement);
    },
  };
}

/** The template database's name, when there is one made from the migrations as they are now. */
function usableTemplate(): string | undefined {
  const template = RUN.template;
  if (!template || template.migrations !== migrationsFingerprint()) return undefined;
  return template.database;
}

let fingerprint: string | undefined;

/** A hash of the migrations' source files: a template made from other ones is not used. */
export function migrationsFingerprint(): string {
  if (fingerprint) return fingerprint;
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/lib/db/migrations');
  const hash = createHash('sha256');
  for (const name of fs.readdirSync(dir).sort())
    hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  return (fingerprint = hash.digest('hex'));
}

/** Runs one statement on its own connection to `url`. */
export async function admin(url: string, statement: string): Promise<void> {
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
