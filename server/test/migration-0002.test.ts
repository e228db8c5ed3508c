import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';

/** The chat migration on a database that already holds accounts, and the indexes its list queries need. */
describe('migration 0002_chat', () => {
  it('keeps existing accounts and gives every chat list query an index', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0001_accounts')).error).toBeUndefined();
    const insertUser = sqlite.prepare(
      `INSERT INTO users (id, email, password_hash, first_name, created_at) VALUES (?, ?, 'x', ?, '2026-01-01')`,
    );
    insertUser.run('a', 'a@uni.edu', 'Ann');
    insertUser.run('b', 'b@uni.edu', 'Ben');

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(sqlite.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 2 });

    sqlite
      .prepare(
        `INSERT INTO direct_messages (id, pair, sender_id, recipient_id, content, created_at, seq)
         VALUES ('m1', 'a:b', 'a', 'b', 'hi', '2026-01-01T00:00:00Z', 1)`,
      )
      .run();
    const plan = (query: string) =>
      (sqlite.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    expect(
      plan(`SELECT * FROM direct_messages WHERE pair = 'a:b' AND seq < 10 ORDER BY seq DESC LIMIT 30`),
    ).toMatch(/direct_messages_pair_seq_idx/);
    expect(
      plan(`SELECT * FROM direct_conversations WHERE user_id = 'a' ORDER BY last_seq DESC LIMIT 50`),
    ).toMatch(/direct_conversations_recent_idx/);
    expect(plan(`SELECT group_id FROM group_members WHERE user_id = 'a'`)).toMatch(/group_members_user_idx/);
    expect(plan(`SELECT * FROM group_messages WHERE group_id = 'g' ORDER BY seq DESC LIMIT 30`)).toMatch(
      /group_messages_group_seq_idx/,
    );
    expect(
      plan(`SELECT seq FROM change_audience WHERE audience = 'u:a' AND seq > 5 ORDER BY seq LIMIT 1000`),
    ).toMatch(/PRIMARY KEY/);
    expect(plan(`SELECT id FROM direct_messages WHERE recipient_id = 'b' AND status = 'sent'`)).toMatch(
      /direct_messages_undelivered_idx/,
    );
    // Deleting an account takes its messages with it.
    sqlite.prepare(`DELETE FROM users WHERE id = 'a'`).run();
    expect(sqlite.prepare('SELECT count(*) AS n FROM direct_messages').get()).toEqual({ n: 0 });
    await db.destroy();
  });
});
