import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';
import {
  reportedCountsSql,
  reportListStatements,
  reportStatements as q,
  restrictionsSql,
} from '../src/modules/reports/repo';

const TABLES = ['reports', 'user_restrictions', 'moderation_log'];

/** Reports, restrictions and the moderation log: their constraints, cascades and the indexes the queue reads. */
describe('migration 0018_reports', () => {
  it('creates the tables, keeps a decision consistent with its status, plans the queue on its indexes, and goes down and up', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const tables = () =>
      TABLES.filter(
        (name) =>
          sqlite
            .prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`)
            .pluck()
            .get(name) === 1,
      );
    const names = Object.keys(migrations);
    const previous = names[names.indexOf('0018_reports') - 1]!;

    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    const user = sqlite.prepare(
      `INSERT INTO users (id, email, password_hash, first_name, last_name, phone_number, role, document_status,
         created_at) VALUES (?, ?, 'x', 'A', 'B', '', 'user', 'verified', '2026-01-01')`,
    );
    for (const id of ['u1', 'u2', 'u3']) user.run(id, `${id}@uni.test`);
    expect((await migrator.migrateTo('0018_reports')).error).toBeUndefined();
    expect(tables()).toEqual(TABLES);

    const insert = sqlite.prepare(q.insert);
    const file = (id: string, reporter: string, reported: string, at = '2026-01-02') =>
      insert.run(id, reporter, reported, 'chat', null, 'spam', null, null, at);
    file('r1', 'u1', 'u2');
    file('r2', 'u3', 'u2', '2026-01-03');
    // Nobody reports themselves, for a reason outside the list, or about nobody.
    expect(() => file('bad', 'u1', 'u1')).toThrow(/CHECK/);
    expect(() => insert.run('bad', 'u1', 'u2', 'chat', null, 'boredom', null, null, 'x')).toThrow(/CHECK/);
    expect(() => insert.run('bad', 'u1', 'u2', 'lecture', null, 'spam', null, null, 'x')).toThrow(/CHECK/);
    expect(() => file('bad', 'u1', 'nobody')).toThrow(/FOREIGN/);

    // A decision: only from open, and its status agrees with it.
    const decide = sqlite.prepare(q.decide);
    expect(decide.run('upheld', 'warn', null, null, null, 'u3', '2026-01-04', 'r1').changes).toBe(1);
    expect(decide.run('dismissed', 'dismiss', null, null, null, 'u3', '2026-01-05', 'r1').changes).toBe(0);
    expect(() => decide.run('dismissed', 'warn', null, null, null, 'u3', 'x', 'r2')).toThrow(/CHECK/);
    expect(() => decide.run('upheld', 'dismiss', null, null, null, 'u3', 'x', 'r2')).toThrow(/CHECK/);
    expect(() => sqlite.prepare(`UPDATE reports SET status = 'upheld' WHERE id = 'r2'`).run()).toThrow(
      /CHECK/,
    );

    // The reporter's deleted account keeps the report; the reported user's takes theirs along.
    sqlite.prepare(`DELETE FROM users WHERE id = 'u1'`).run();
    expect(sqlite.prepare(`SELECT reporter_id FROM reports WHERE id = 'r1'`).pluck().get()).toBeNull();
    sqlite.prepare(q.ensureRestriction).run('u2', '2026-01-01');
    sqlite.prepare(q.insertLog).run('l1', 'u2', 'u3', 'warn', 'r1', null, null, '2026-01-04');
    expect(() => sqlite.prepare(q.insertLog).run('l2', 'u2', null, 'ban', null, null, null, 'x')).toThrow(
      /CHECK/,
    );
    sqlite.prepare(`DELETE FROM users WHERE id = 'u2'`).run();
    for (const table of TABLES)
      expect(sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);

    const plan = (text: string) =>
      (
        sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...Array.from(text.matchAll(/\?/g), () => 'x')) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join(' | ');
    expect(plan(reportListStatements.sqlite.openPage)).toMatch(
      /SEARCH r USING INDEX reports_queue_idx \(status=\? AND \(created_at,id\)>\(\?,\?\)\)/,
    );
    expect(plan(reportListStatements.sqlite.openPage)).not.toMatch(/TEMP B-TREE/);
    expect(plan(reportListStatements.sqlite.decidedPage)).toMatch(/reports_decided_idx/);
    expect(plan(reportListStatements.sqlite.decidedPage)).not.toMatch(/TEMP B-TREE/);
    expect(plan(q.filedSince)).toMatch(/reports_reporter_idx \(reporter_id=\? AND created_at>\?\)/);
    expect(plan(q.distinctReporters)).toMatch(/reports_reported_idx \(reported_id=\? AND created_at>\?\)/);
    expect(plan(reportedCountsSql(3))).toMatch(/reports_reported_idx \(reported_id=\?\)/);
    expect(plan(q.restriction)).toMatch(/PRIMARY KEY \(user_id=\?\)/);
    expect(plan(restrictionsSql(2))).toMatch(/PRIMARY KEY \(user_id=\?\)/);
    expect(plan(q.logOf)).toMatch(/moderation_log_user_idx \(user_id=\?\)/);

    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    expect(tables()).toEqual([]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(tables()).toEqual(TABLES);
    await db.destroy();
  });
});
