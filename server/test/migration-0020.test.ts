import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';
import {
  blockedByUserSql,
  blockedEitherWaySql,
  insertRandomBlockSql,
  randomBlockedSql,
} from '../src/modules/random/repo';

/** Blocks made from random rooms: one per direction, gone with either account, read by key and index. */
describe('migration 0020_random_blocks', () => {
  it('creates the table, reads it by its key and index, and goes down and up', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const hasTable = () =>
      sqlite
        .prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'random_blocks'`)
        .pluck()
        .get() === 1;
    const names = Object.keys(migrations);
    const previous = names[names.indexOf('0020_random_blocks') - 1]!;

    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    expect(hasTable()).toBe(false);
    const user = sqlite.prepare(
      `INSERT INTO users (id, email, password_hash, first_name, last_name, phone_number, role, document_status,
         created_at) VALUES (?, ?, 'x', 'A', 'B', '', 'user', 'verified', '2026-01-01')`,
    );
    for (const id of ['u1', 'u2', 'u3']) user.run(id, `${id}@uni.test`);
    expect((await migrator.migrateTo('0020_random_blocks')).error).toBeUndefined();

    const insert = sqlite.prepare(insertRandomBlockSql);
    expect(insert.run('u1', 'u2', '2026-01-02').changes).toBe(1);
    // Blocking again changes nothing.
    expect(insert.run('u1', 'u2', '2026-01-03').changes).toBe(0);
    expect(() => insert.run('u1', 'nobody', 'x')).toThrow(/FOREIGN/);
    expect(sqlite.prepare(randomBlockedSql).get('u2', 'u1', 'u1', 'u2')).toEqual({ one: 1 });
    expect(sqlite.prepare(randomBlockedSql).get('u3', 'u1', 'u1', 'u3')).toBeUndefined();
    // Either way for the matchmaker; only the asker's own for counts.
    expect(sqlite.prepare(blockedEitherWaySql).all('u2', 'u2', 'u2', 'u2')).toEqual([{ id: 'u1' }]);
    expect(sqlite.prepare(blockedByUserSql).all('u2', 'u2')).toEqual([]);
    expect(sqlite.prepare(blockedByUserSql).all('u1', 'u1')).toEqual([{ id: 'u2' }]);

    const plan = (q: string) =>
      (
        sqlite.prepare(`EXPLAIN QUERY PLAN ${q}`).all(...Array.from(q.matchAll(/\?/g), () => 'x')) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join(' | ');
    expect(plan(randomBlockedSql)).toMatch(/PRIMARY KEY/);
    expect(plan(blockedEitherWaySql)).toMatch(/random_blocks_blocked_idx/);
    expect(plan(blockedEitherWaySql)).not.toMatch(/SCAN random_blocks/);

    sqlite.prepare(`DELETE FROM users WHERE id = 'u2'`).run();
    expect(sqlite.prepare('SELECT count(*) FROM random_blocks').pluck().get()).toBe(0);

    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    expect(hasTable()).toBe(false);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(hasTable()).toBe(true);
    await db.destroy();
  });
});
