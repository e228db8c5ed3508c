import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { startCheckpointer, type Checkpointer, type CheckpointerOptions } from './checkpointer';
import { createMigrator } from './migrations';
import type { Database } from './schema';
import { keepFilePrivate, makePrivateDir } from '../private-files';
import { serializedDialect } from './serialized-dialect';
import { statementCache } from './statement-cache';
import { writeLockOf } from './write-lock';

export type DB = Kysely<Database>;

export interface OpenedDatabase {
  db: DB;
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /**
   * WAL checkpoints in a worker thread (checkpointer.ts) instead of inside the COMMIT that crosses SQLite's
   * threshold: the server's. A command-line tool's short session leaves them to SQLite.
   */
  checkpointer?: CheckpointerOptions;
}

/** Opens (creating if needed) the SQLite file with WAL, foreign keys and a busy timeout. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): OpenedDatabase {
  if (file !== ':memory:') createPrivately(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  if (file !== ':memory:') restrictSidecars(file);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Kysely shares the handle's write lock with the realtime engine's commits (write-lock.ts), and its
  // prepared statements (statement-cache.ts): Kysely's own driver prepares every query anew.
  const statements = statementCache(sqlite);
  const database = { prepare: (sql: string) => statements.get(sql), close: () => sqlite.close() };
  const dialect = serializedDialect(new SqliteDialect({ database }), writeLockOf(sqlite));
  const db = new Kysely<Database>({ dialect });
  const checkpointer: Checkpointer | undefined =
    options.checkpointer && file !== ':memory:'
      ? startCheckpointer(sqlite, file, options.checkpointer)
      : undefined;
  return {
    db,
    sqlite,
    async close() {
      await checkpointer?.stop();
      // Fold the WAL back into the main file so a stopped server leaves one tidy database file.
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      await db.destroy();
    },
  };
}

/**
 * The database holds password hashes, sessions and private messages: only the server's user may read it.
 * The folder (DATA_DIR) is made or tightened to 0700 and the file to 0600 before SQLite opens it (an empty
 * file is a valid empty database); see private-files.ts.
 */
function createPrivately(file: string): void {
  makePrivateDir(path.dirname(file));
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A file left world-readable by an earlier version is tightened too.
  keepFilePrivate(file);
}

/**
 * SQLite gives its -wal and -shm files the mode of the database file, so they are 0600 already; this
 * tightens the ones an earlier version left behind.
 */
function restrictSidecars(file: string): void {
  for (const sidecar of [`${file}-wal`, `${file}-shm`]) keepFilePrivate(sidecar);
}

export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const migrator = await createMigrator(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
