import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';

/** 0005 on a database that already holds confessions: counters, notices and claims start from what is there. */
describe('migrations 0005_confession_safety and 0006_notification_confession', () => {
  it('backfills tab counts, reaction notices and signed nicknames, and folds keys with NFKC', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0004_notifications')).error).toBeUndefined();

    const user = sqlite.prepare(
      `INSERT INTO users (id, email, password_hash, first_name, created_at) VALUES (?, ?, 'x', ?, '2026-01-01')`,
    );
    for (const id of ['a', 'b', 'c']) user.run(id, `${id}@uni.edu`, id.toUpperCase());
    const nick = sqlite.prepare(`INSERT INTO nicknames VALUES (?, ?, ?, '2026-01-01')`);
    nick.run('a', 'Ray2', 'ray2');
    nick.run('b', 'ＯＷＬ', 'ｏｗｌ'); // stored with the old NFC fold
    const confession = sqlite.prepare(
      `INSERT INTO confessions (id, author_id, nickname, content, emotion_tag, college, created_at, deleted_at)
       VALUES (?, ?, ?, 'text', '😊', ?, ?, ?)`,
    );
    confession.run('c1', 'a', 'Ray', 'North', '2026-01-02', null);
    confession.run('c2', 'a', 'Ray2', 'North', '2026-01-03', null);
    confession.run('c3', 'b', 'ＯＷＬ', 'South', '2026-01-04', null);
    confession.run('c4', 'b', 'ＯＷＬ', 'South', '2026-01-05', '2026-01-06');
    confession.run('c5', 'c', 'Nomad', null, '2026-01-07', null);
    // 'c' later signed a comment with the name 'a' had used first: 'a' keeps it.
    sqlite
      .prepare(
        `INSERT INTO confession_comments VALUES ('k1', 'c1', 'c', 'RAY', 'hi', '2026-01-08'),
                                                ('k2', 'c1', 'c', 'Nomad', 'yo', '2026-01-09')`,
      )
      .run();
    sqlite
      .prepare(
        `INSERT INTO confession_reactions VALUES ('c1', 'b', 'funny', '2026-01-08'), ('c1', 'c', 'relatable', '2026-01-08')`,
      )
      .run();

    sqlite
      .prepare(
        `INSERT INTO notifications (id, user_id, type, title, body, data, created_at) VALUES
           ('n1', 'a', 'confession_reaction', 't', 'b', '{"confessionId":"c1"}', '2026-01-08'),
           ('n2', 'a', 'friend_request', 't', 'b', '{}', '2026-01-08')`,
      )
      .run();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    // 0006: notifications know their confession (by index), friend requests have none.
    expect(sqlite.prepare('SELECT id, confession_id FROM notifications ORDER BY id').all()).toEqual([
      { id: 'n1', confession_id: 'c1' },
      { id: 'n2', confession_id: null },
    ]);
    const plan = sqlite
      .prepare(`EXPLAIN QUERY PLAN SELECT id, user_id FROM notifications WHERE confession_id = 'c1'`)
      .all() as { detail: string }[];
    expect(plan.map((r) => r.detail).join()).toMatch(/notifications_confession_idx/);

    const totals = Object.fromEntries(
      (sqlite.prepare('SELECT scope, n FROM confession_totals').all() as { scope: string; n: number }[]).map(
        (r) => [r.scope, r.n],
      ),
    );
    expect(totals).toEqual({ '*': 4, 'c:North': 2, 'c:South': 1 });
    expect(sqlite.prepare('SELECT count(*) AS n FROM confession_reaction_notices').get()).toEqual({ n: 2 });
    const claims = sqlite
      .prepare('SELECT nickname_key, user_id FROM nickname_claims ORDER BY nickname_key')
      .all();
    expect(claims).toEqual([
      { nickname_key: 'nomad', user_id: 'c' },
      { nickname_key: 'owl', user_id: 'b' },
      { nickname_key: 'ray', user_id: 'a' },
      { nickname_key: 'ray2', user_id: 'a' },
    ]);
    expect(sqlite.prepare(`SELECT nickname_key FROM nicknames WHERE user_id = 'b'`).get()).toEqual({
      nickname_key: 'owl',
    });

    // Deleting an account takes its claims and notices with it.
    sqlite.prepare(`DELETE FROM users WHERE id = 'c'`).run();
    expect(sqlite.prepare(`SELECT count(*) AS n FROM nickname_claims WHERE user_id = 'c'`).get()).toEqual({
      n: 0,
    });
    expect(
      sqlite.prepare(`SELECT count(*) AS n FROM confession_reaction_notices WHERE user_id = 'c'`).get(),
    ).toEqual({ n: 0 });

    // The counts follow every way a confession comes or goes: a post, a soft delete, an account deleted.
    const counts = () =>
      Object.fromEntries(
        (
          sqlite.prepare('SELECT scope, n FROM confession_totals').all() as { scope: string; n: number }[]
        ).map((r) => [r.scope, r.n]),
      );
    confession.run('c6', 'b', 'ＯＷＬ', 'East', '2026-01-10', null);
    expect(counts()).toEqual({ '*': 4, 'c:North': 2, 'c:South': 1, 'c:East': 1 }); // c5 went with 'c'
    sqlite.prepare(`UPDATE confessions SET deleted_at = '2026-01-11' WHERE id = 'c3'`).run();
    sqlite.prepare(`UPDATE confessions SET deleted_at = '2026-01-12' WHERE id = 'c3'`).run(); // once only
    expect(counts()).toEqual({ '*': 3, 'c:North': 2, 'c:South': 0, 'c:East': 1 });
    sqlite.prepare(`DELETE FROM users WHERE id = 'a'`).run();
    expect(counts()).toEqual({ '*': 1, 'c:North': 0, 'c:South': 0, 'c:East': 1 });

    // Down again, one step at a time: 0006 then 0005 (after whatever later migrations exist).
    expect((await migrator.migrateTo('0006_notification_confession')).error).toBeUndefined();
    for (const name of ['0006_notification_confession', '0005_confession_safety']) {
      const step = await migrator.migrateDown();
      expect(step.error).toBeUndefined();
      expect(step.results?.map((r) => r.migrationName)).toEqual([name]);
    }
    expect(
      sqlite.prepare(`SELECT name FROM sqlite_master WHERE name = 'confession_totals'`).get(),
    ).toBeUndefined();
    await db.destroy();
  });
});
