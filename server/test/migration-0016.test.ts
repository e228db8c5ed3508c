import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';
import { logsPageSql, pairSql } from '../src/modules/calls/repo';

/** Call history: the table, its constraints, and the history page and the placement check on indexes. */
describe('migration 0016_calls', () => {
  it('creates call_logs, refuses bad rows, plans the history on its two indexes, and goes down and up', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const tables = () =>
      sqlite
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'call_logs'`)
        .pluck()
        .all();

    expect((await migrator.migrateTo('0015_friends')).error).toBeUndefined();
    const user = sqlite.prepare(
      `INSERT INTO users (id, email, password_hash, first_name, last_name, phone_number, role, document_status,
         created_at) VALUES (?, ?, 'x', 'A', 'B', '', 'user', 'verified', '2026-01-01')`,
    );
    user.run('u1', 'a@uni.test');
    user.run('u2', 'b@uni.test');
    expect((await migrator.migrateTo('0016_calls')).error).toBeUndefined();
    expect(tables()).toEqual(['call_logs']);

    const log = sqlite.prepare(
      `INSERT INTO call_logs (id, caller_id, callee_id, call_type, status, started_at, duration, callee_hidden)
       VALUES (?, ?, ?, ?, ?, '2026-01-02T10:00:00.000Z', ?, ?)`,
    );
    log.run('l1', 'u1', 'u2', 'audio', 'completed', 65, 0);
    log.run('l2', 'u2', 'u1', 'video', 'no_answer', 0, 1);
    expect(() => log.run('l3', 'u1', 'u1', 'audio', 'completed', 0, 0)).toThrow(/CHECK/);
    expect(() => log.run('l4', 'u1', 'u2', 'radio', 'completed', 0, 0)).toThrow(/CHECK/);
    expect(() => log.run('l5', 'u1', 'u2', 'audio', 'dropped', 0, 0)).toThrow(/CHECK/);
    expect(() => log.run('l6', 'u1', 'u2', 'audio', 'completed', -1, 0)).toThrow(/CHECK/);
    expect(() => log.run('l7', 'u1', 'u2', 'audio', 'completed', 0, 2)).toThrow(/CHECK/);
    expect(() => log.run('l8', 'u1', 'nobody', 'audio', 'completed', 0, 0)).toThrow(/FOREIGN/);
    expect(() => log.run('l1', 'u1', 'u2', 'audio', 'completed', 0, 0)).toThrow(/UNIQUE|PRIMARY/);

    const plan = (q: string) =>
      (
        sqlite.prepare(`EXPLAIN QUERY PLAN ${q}`).all(...Array.from(q.matchAll(/\?/g), () => 'x')) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join(' | ');
    const page = plan(logsPageSql);
    expect(page).toMatch(/SEARCH call_logs USING INDEX call_logs_caller_idx \(caller_id=\? AND/);
    expect(page).toMatch(/SEARCH call_logs USING INDEX call_logs_callee_idx \(callee_id=\? AND/);
    expect(page).not.toMatch(/SCAN call_logs\b(?! USING)/);
    expect(page).toMatch(
      /SEARCH a USING INDEX sqlite_autoindex_users_1|SEARCH a USING (INTEGER )?PRIMARY KEY/,
    );
    expect(plan(pairSql)).not.toMatch(
      /SCAN (users|blocks|direct_conversations|group_members|friendships|m|o)\b(?! USING)/,
    );
    // The hidden row is the caller's only: the callee's index does not hold it.
    const calleeRange = `SELECT id FROM call_logs INDEXED BY call_logs_callee_idx
      WHERE callee_id = ? AND callee_hidden = 0 ORDER BY started_at DESC`;
    expect(sqlite.prepare(calleeRange).pluck().all('u1')).toEqual([]);
    expect(sqlite.prepare(calleeRange).pluck().all('u2')).toEqual(['l1']);

    expect((await migrator.migrateTo('0015_friends')).error).toBeUndefined();
    expect(tables()).toEqual([]);
    expect(sqlite.prepare('SELECT count(*) FROM users').pluck().get()).toBe(2);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(tables()).toEqual(['call_logs']);
    await db.destroy();
  });
});
