import path from 'node:path';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { loadConfig, type Config } from '../config';
import { migrateToLatest, openDatabase, type DB } from '../lib/db/database';
import type { DatabaseState } from '../deps';
import type { EngineTransactor } from '../realtime/engine-transactor';

/** Where the one-off commands write: the server's SQLite file, or DATABASE_URL's PostgreSQL. */
export type CliStore = { kind: 'sqlite'; sqlite: SQLite.Database } | { kind: 'postgres'; pool: pg.Pool };

export interface OpenedCliDatabase {
  config: Config;
  db: DB;
  store: CliStore;
  /** Which database, and whether it is still open (closed by `close`). */
  state: DatabaseState;
  /**
   * From now on Kysely (`db`) refuses to run inside this transactor's commits and reads, as the server's
   * does (on SQLite the handle's write lock already makes such a call fail instead of waiting for itself).
   */
  guard(transactor: EngineTransactor): void;
  close(): Promise<void>;
}

/**
 * The same database the server uses (DATA_DIR's SQLite file, or DATABASE_URL's PostgreSQL, where several
 * nodes and these commands share it), migrated, for one-off commands.
 */
export async function openMigratedDatabase(): Promise<OpenedCliDatabase> {
  const config = loadConfig();
  let guarded: EngineTransactor | undefined;
  let opened: { db: DB; close(): Promise<void>; store: CliStore };
  if (config.database.kind === 'postgres') {
    const { url, schema } = config.database;
    // A few connections: a command commits one at a time, beside Kysely's reads and the change log's prune.
    // Imported here: a deployment on SQLite never loads pg (server/build.mjs).
    const { openPostgres } = await import('../lib/db/postgres');
    const pg = openPostgres(url, {
      schema,
      max: 4,
      insideCommit: () => guarded?.insideTransaction === true,
    });
    opened = { db: pg.db, close: pg.close, store: { kind: 'postgres', pool: pg.pool } };
  } else {
    const sqlite = openDatabase(path.join(config.dataDir, 'campus-talk.sqlite'));
    opened = { db: sqlite.db, close: sqlite.close, store: { kind: 'sqlite', sqlite: sqlite.sqlite } };
  }
  try {
    await migrateToLatest(opened.db);
  } catch (err) {
    await opened.close();
    throw err;
  }
  let open = true;
  return {
    config,
    db: opened.db,
    store: opened.store,
    state: {
      kind: opened.store.kind,
      get open() {
        return open;
      },
    },
    guard(transactor) {
      guarded = transactor;
    },
    close() {
      open = false;
      return opened.close();
    },
  };
}
