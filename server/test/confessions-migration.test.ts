import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';

/** The confessions migration on a database that already holds accounts and chat, and its list indexes. */
describe('migration 0003_confessions', () => {
  it('keeps existing accounts, gives every confession list query an index and enforces the keys', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0002_chat')).error).toBeUndefined();
    const insertUser = sqlite.prepare(
      `INSERT INTO users (id, email, password_hash, first_name, created_at) VALUES (?, ?, 'x', ?, '2026-01-01')`,
    );
    insertUser.run('a', 'a@uni.edu', 'Ann');
    insertUser.run('b', 'b@uni.edu', 'Ben');
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(sqlite.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 2 });

    const plan = (query: string) =>
      (sqlite.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    const feed = plan(
      `SELECT id FROM confessions WHERE deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 10 OFFSET 10`,
    );
    expect(feed).toMatch(/confessions_feed_idx/);
    expect(feed).not.toMatch(/TEMP B-TREE/);
    const college = plan(
      `SELECT id FROM confessions WHERE deleted_at IS NULL AND college = 'X'
        ORDER BY created_at DESC, id DESC LIMIT 10`,
    );
    expect(college).toMatch(/confessions_college_feed_idx/);
    expect(college).not.toMatch(/TEMP B-TREE/);
    expect(plan(`SELECT count(*) FROM confessions WHERE deleted_at IS NULL AND college = 'X'`)).toMatch(
      /confessions_college_feed_idx/,
    );
    const comments = plan(
      `SELECT id FROM confession_comments WHERE confession_id = 'c' ORDER BY created_at DESC, id DESC LIMIT 20`,
    );
    expect(comments).toMatch(/confession_comments_confession_idx/);
    expect(comments).not.toMatch(/TEMP B-TREE/);
    // A page's own reactions: one key lookup per card (the feed's query shape).
    const mine = plan(
      `SELECT r.reaction_type FROM json_each('["c"]') j
         CROSS JOIN confession_reactions r ON r.confession_id = j.value AND r.user_id = 'a'`,
    );
    expect(mine).toMatch(
      /confession_reactions.*\((confession_id=\? AND user_id=\?|user_id=\? AND confession_id=\?)\)/,
    );
    expect(plan(`SELECT user_id FROM nicknames WHERE nickname_key = 'x'`)).toMatch(/INDEX/);

    sqlite
      .prepare(
        `INSERT INTO nicknames (user_id, nickname, nickname_key, updated_at) VALUES ('a', 'Owl', 'owl', '2026-01-01')`,
      )
      .run();
    expect(() =>
      sqlite
        .prepare(
          `INSERT INTO nicknames (user_id, nickname, nickname_key, updated_at) VALUES ('b', 'OWL', 'owl', '2026-01-01')`,
        )
        .run(),
    ).toThrow(/UNIQUE/);
    sqlite
      .prepare(
        `INSERT INTO confessions (id, author_id, nickname, content, emotion_tag, college, created_at)
         VALUES ('c', 'a', 'Owl', 'hi', '😏', NULL, '2026-01-01T00:00:00Z')`,
      )
      .run();
    const react = sqlite.prepare(
      `INSERT INTO confession_reactions VALUES ('c', 'b', 'funny', '2026-01-01T00:00:00Z')`,
    );
    react.run();
    expect(() => react.run()).toThrow(/UNIQUE|PRIMARY/);
    // Deleting an account takes its confessions and their reactions with it.
    sqlite.prepare(`DELETE FROM users WHERE id = 'a'`).run();
    expect(sqlite.prepare('SELECT count(*) AS n FROM confession_reactions').get()).toEqual({ n: 0 });
    expect((await migrator.migrateTo('0002_chat')).error).toBeUndefined();
    expect(sqlite.prepare(`SELECT name FROM sqlite_master WHERE name = 'confessions'`).get()).toBeUndefined();
    await db.destroy();
  });
});
