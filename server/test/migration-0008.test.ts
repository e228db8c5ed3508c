import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';

/** The direct-message limits' counters, backfilled from existing chats, and the index the hourly count uses. */
describe('migration 0008_direct_limits', () => {
  it('backfills who sent how many and who started each chat, and counts new chats by index', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0006_notification_confession')).error).toBeUndefined();

    const insertUser = sqlite.prepare(
      `INSERT INTO users (id, email, password_hash, first_name, created_at) VALUES (?, ?, 'x', ?, '2026-01-01')`,
    );
    for (const id of ['a', 'b', 'c']) insertUser.run(id, `${id}@uni.edu`, id.toUpperCase());
    const message = sqlite.prepare(
      `INSERT INTO direct_messages (id, pair, sender_id, recipient_id, content, created_at, seq)
       VALUES (?, ?, ?, ?, 'hi', ?, ?)`,
    );
    const conversation = sqlite.prepare(
      `INSERT INTO direct_conversations (user_id, peer_id, last_message_id, last_seq) VALUES (?, ?, ?, ?)`,
    );
    // a started with b (two messages, one answer); c started with a and was never answered.
    message.run('m1', 'a:b', 'a', 'b', '2026-03-01T10:00:00.000Z', 1);
    message.run('m2', 'a:b', 'a', 'b', '2026-03-01T10:01:00.000Z', 2);
    message.run('m3', 'a:b', 'b', 'a', '2026-03-01T10:02:00.000Z', 3);
    message.run('m4', 'a:c', 'c', 'a', '2026-03-01T11:00:00.250Z', 4);
    conversation.run('a', 'b', 'm3', 3);
    conversation.run('b', 'a', 'm3', 3);
    conversation.run('a', 'c', 'm4', 4);
    conversation.run('c', 'a', 'm4', 4);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = sqlite
      .prepare('SELECT user_id, peer_id, sent_count, started_ms FROM direct_conversations ORDER BY 1, 2')
      .all();
    expect(rows).toEqual([
      { user_id: 'a', peer_id: 'b', sent_count: 2, started_ms: Date.parse('2026-03-01T10:00:00.000Z') },
      { user_id: 'a', peer_id: 'c', sent_count: 0, started_ms: null },
      { user_id: 'b', peer_id: 'a', sent_count: 1, started_ms: null },
      { user_id: 'c', peer_id: 'a', sent_count: 1, started_ms: Date.parse('2026-03-01T11:00:00.250Z') },
    ]);

    const plan = (query: string) =>
      (sqlite.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    // The exact statements of modules/chat/direct-limits.ts.
    expect(
      plan(`SELECT count(*) AS n FROM direct_conversations WHERE user_id = 'a' AND started_ms >= 5`),
    ).toMatch(/direct_conversations_started_idx/);
    const pairPlan = plan(
      `SELECT (SELECT sent_count FROM direct_conversations WHERE user_id = 'a' AND peer_id = 'b') AS mine,
              (SELECT sent_count FROM direct_conversations WHERE user_id = 'b' AND peer_id = 'a') AS theirs`,
    );
    expect(pairPlan).toMatch(/PRIMARY KEY/);
    expect(pairPlan).not.toMatch(/SCAN direct_conversations/);

    // And back down, leaving the table as it was.
    expect((await migrator.migrateTo('0006_notification_confession')).error).toBeUndefined();
    const columns = (
      sqlite.prepare('PRAGMA table_info(direct_conversations)').all() as { name: string }[]
    ).map((c) => c.name);
    expect(columns).not.toContain('sent_count');
    expect(columns).not.toContain('started_ms');
    await db.destroy();
  });
});
