import type { TestProject } from 'vitest/node';
import { migrateToLatest } from '../../src/lib/db/database';
import { openPostgres } from '../../src/lib/db/postgres';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import {
  admin,
  databaseUrl,
  migrationsFingerprint,
  POSTGRES_URL,
  TEMPLATE_SCHEMA,
  type PostgresRun,
} from './postgres';

/**
 * globalSetup of the projects that use PostgreSQL (server, server-pg, system): once per `vitest run`, in
 * the main process, a template database (`ct_<run>_template`) whose schema the migrations have been run on,
 * which every test server's database is copied from (support/postgres.ts); at the end of the run, every
 * database of the run still there is dropped. PostgreSQL not answering is no error here: the tests that
 * need it fail, saying so, and the others run.
 */
interface Shared {
  users: number;
  run: Promise<PostgresRun>;
}

const key = Symbol.for('campus-talk.postgres-run');
const global = globalThis as { [key]?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (global[key] ??= { users: 0, run: prepare() });
  shared.users++;
  const run = await shared.run;
  project.provide('ctPostgres', run);
  return async () => {
    if (--shared.users > 0) return;
    delete global[key];
    await dropRun(run.run);
  };
}

async function prepare(): Promise<PostgresRun> {
  const run = randomBytes(4).toString('hex');
  const database = `ct_${run}_template`;
  try {
    await admin(POSTGRES_URL, `CREATE DATABASE ${database}`);
  } catch {
    return { run };
  }
  const url = databaseUrl(POSTGRES_URL, database);
  try {
    await admin(url, `CREATE SCHEMA ${TEMPLATE_SCHEMA}`);
    const opened = openPostgres(url, { schema: TEMPLATE_SCHEMA, max: 1 });
    try {
      await migrateToLatest(opened.db);
    } finally {
      await opened.close();
    }
  } catch {
    // The servers migrate their own schemas then, and fail there, in their tests, if the migrations do.
    await admin(POSTGRES_URL, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    return { run };
  }
  return { run, template: { database, migrations: migrationsFingerprint() } };
}

/** Drops what the run left: the template, and the databases of files or servers that did not get to it. */
async function dropRun(run: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch {
    return;
  }
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
      [`ct_${run}_`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
