import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';
import { deleteHeldRequestSql, heldRequestSql, insertHeldRequestSql } from '../src/modules/friends/repo';

/** Friend requests held back by a block: one per direction, gone with either account, read by key. */
describe('migration 0017_held_friend_requests', () => {
  it('creates the table, keeps one held request per direction, plans its reads on the key, and goes down and up', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const hasTable = () =>
      sqlite
        .prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'held_friend_requests'`)
        .pluck()
        .get() === 1;
    const names = Object.keys(migrations);
    const previous = names[names.indexOf('0017_held_friend_requests') - 1]!;

    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    const user = sqlite.prepare(
      `INSERT INTO users (id, email, password_hash, first_name, last_name, phone_number, role, document_status,
         created_at) VALUES (?, ?, 'x', 'A', 'B', '', 'user', 'verified', '2026-01-01')`,
    );
    user.run('u1', 'a@uni.test');
    user.run('u2', 'b@uni.test');
    expect((await migrator.migrateTo('0017_held_friend_requests')).error).toBeUndefined();
    expect(hasTable()).toBe(true);

    const hold = sqlite.prepare(insertHeldRequestSql);
    expect(hold.run('u1', 'u2', '2026-01-02').changes).toBe(1);
    // Asking again holds nothing more: that is the `alreadySent` answer.
    expect(hold.run('u1', 'u2', '2026-01-03').changes).toBe(0);
    expect(hold.run('u2', 'u1', '2026-01-02').changes).toBe(1);
    const insert = sqlite.prepare(
      'INSERT INTO held_friend_requests (from_id, to_id, created_at) VALUES (?, ?, ?)',
    );
    expect(() => insert.run('u1', 'u1', 'x')).toThrow(/CHECK/);
    expect(() => insert.run('u1', 'nobody', 'x')).toThrow(/FOREIGN/);
    expect(sqlite.prepare(heldRequestSql).get('u1', 'u2')).toEqual({ created_at: '2026-01-02' });
    expect(sqlite.prepare(deleteHeldRequestSql).run('u2', 'u1').changes).toBe(1);
    // Either account's deletion takes its held requests along (the cascade reads held_friend_requests_to_idx).
    sqlite.prepare(`DELETE FROM users WHERE id = 'u2'`).run();
    expect(sqlite.prepare('SELECT count(*) FROM held_friend_requests').pluck().get()).toBe(0);

    const plan = (q: string) =>
      (
        sqlite.prepare(`EXPLAIN QUERY PLAN ${q}`).all(...Array.from(q.matchAll(/\?/g), () => 'x')) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join(' | ');
    expect(plan(heldRequestSql)).toMatch(/PRIMARY KEY \(from_id=\? AND to_id=\?\)/);
    expect(plan(deleteHeldRequestSql)).toMatch(/PRIMARY KEY \(from_id=\? AND to_id=\?\)/);
    expect(plan('SELECT 1 FROM held_friend_requests WHERE to_id = ?')).toMatch(/held_friend_requests_to_idx/);

    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    expect(hasTable()).toBe(false);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(hasTable()).toBe(true);
    await db.destroy();
  });
});
