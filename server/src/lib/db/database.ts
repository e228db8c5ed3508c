import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from './migrations';
import type { Database } from './schema';

export type DB = Kysely<Database>;

export interface OpenedDatabase {
  db: DB;
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

/** Opens (creating if needed) the SQLite file with WAL, foreign keys and a busy timeout. */
export function openDatabase(file: string): OpenedDatabase {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    sqlite,
    async close() {
      // Fold the WAL back into the main file so a stopped server leaves one tidy database file.
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      await db.destroy();
    },
  };
}

export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
