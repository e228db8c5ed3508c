import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';

/**
 * Confessions learn the seq of their posted change, so a deletion can redact it; those deleted before get
 * theirs redacted by the migration itself.
 */
describe('migration 0012_confession_posted_seq', () => {
  it('backfills posted_seq from the log, redacts the posted changes of deleted confessions, and down drops it', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0011_reject_codes')).error).toBeUndefined();
    sqlite
      .prepare(
        `INSERT INTO users (id, email, password_hash, first_name, created_at) VALUES ('a', 'a@uni.edu', 'x', 'Ann', '2026-01-01')`,
      )
      .run();
    const confession = sqlite.prepare(
      `INSERT INTO confessions (id, author_id, nickname, content, emotion_tag, college, created_at, deleted_at)
       VALUES (?, 'a', 'Owl', ?, '😏', NULL, '2026-01-01T00:00:00.000Z', ?)`,
    );
    confession.run('live', 'still here', null);
    confession.run('gone', '', '2026-01-02T00:00:00.000Z');
    confession.run('old', 'posted before the log was kept', null);
    const log = sqlite.prepare('INSERT INTO change_log (seq, type, payload, created_ms) VALUES (?, ?, ?, 0)');
    const posted = (seq: number, id: string, content: string) =>
      JSON.stringify({ type: 'confession_posted', confession: { id, content }, seq });
    log.run(5, 'confession_posted', posted(5, 'live', 'still here'));
    log.run(6, 'confession_posted', posted(6, 'gone', 'the secret I took back'));
    log.run(7, 'confession_mine', JSON.stringify({ type: 'confession_mine', confessionId: 'gone', seq: 7 }));
    sqlite.prepare(`INSERT INTO change_audience (audience, seq) VALUES ('students', 6)`).run();

    expect((await migrator.migrateTo('0012_confession_posted_seq')).error).toBeUndefined();
    expect(sqlite.prepare('SELECT id, posted_seq FROM confessions ORDER BY id').all()).toEqual([
      { id: 'gone', posted_seq: 6 },
      { id: 'live', posted_seq: 5 },
      { id: 'old', posted_seq: 0 },
    ]);
    const entries = sqlite.prepare('SELECT seq, type, payload FROM change_log ORDER BY seq').all();
    expect(entries).toEqual([
      { seq: 5, type: 'confession_posted', payload: posted(5, 'live', 'still here') },
      {
        seq: 6,
        type: 'confession_deleted',
        payload: JSON.stringify({ type: 'confession_deleted', confessionId: 'gone', seq: 6 }),
      },
      { seq: 7, type: 'confession_mine', payload: expect.any(String) as string },
    ]);
    // The entry keeps its audiences; nothing waits to be announced.
    expect(sqlite.prepare('SELECT audience FROM change_audience WHERE seq = 6').pluck().all()).toEqual([
      'students',
    ]);
    const plan = sqlite
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM confessions WHERE posted_seq IS NULL AND deleted_at IS NULL
          ORDER BY created_at, id`,
      )
      .all() as { detail: string }[];
    expect(plan.map((r) => r.detail).join(' | ')).toMatch(/confessions_unpublished_idx/);

    expect((await migrator.migrateTo('0011_reject_codes')).error).toBeUndefined();
    const columns = sqlite.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('confessions');
    expect(columns).not.toContain('posted_seq');
    expect(sqlite.prepare('SELECT count(*) FROM confessions').pluck().get()).toBe(3);
    await db.destroy();
  });
});
