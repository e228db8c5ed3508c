import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';
import { nicknameSkeleton } from '../src/modules/confessions/skeleton';

/** Skeletons stored before the space rule, collapsed so a new name with one space finds the older one. */
describe('migration 0010_nickname_skeleton_spaces', () => {
  it("collapses runs of spaces in stored skeletons and keeps each owner's nickname as set", async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0009_users_directory')).error).toBeUndefined();
    sqlite
      .prepare(
        `INSERT INTO users (id, email, password_hash, first_name, last_name, created_at) VALUES (?, ?, 'x', 'A', 'B', '2026-01-01')`,
      )
      .run('old', 'old@uni.edu');
    // As the older rule stored them: the name as typed, the skeleton with its two spaces.
    sqlite
      .prepare(
        `INSERT INTO nicknames (user_id, nickname, nickname_key, updated_at, skeleton) VALUES ('old', 'night  owl', 'night  owl', '2026-01-01', 'nlght  owl')`,
      )
      .run();
    sqlite
      .prepare(
        `INSERT INTO nickname_claims (nickname_key, user_id, skeleton) VALUES ('night  owl', 'old', 'nlght  owl'), ('plain', 'old', 'plaln')`,
      )
      .run();

    expect((await migrator.migrateTo('0010_nickname_skeleton_spaces')).error).toBeUndefined();
    const look = nicknameSkeleton('night owl');
    expect(sqlite.prepare('SELECT nickname, skeleton FROM nicknames').all()).toEqual([
      { nickname: 'night  owl', skeleton: look },
    ]);
    expect(sqlite.prepare('SELECT nickname_key, skeleton FROM nickname_claims ORDER BY 1').all()).toEqual([
      { nickname_key: 'night  owl', skeleton: look },
      { nickname_key: 'plain', skeleton: 'plaln' },
    ]);
    expect((await migrator.migrateTo('0009_users_directory')).error).toBeUndefined();
    await db.destroy();
  });
});
