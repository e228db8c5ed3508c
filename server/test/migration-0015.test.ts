import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';
import {
  blockedBySql,
  blockedEitherWaySql,
  blockedWithAnySql,
  blocksPageSql,
  friendsPageSql,
  friendshipSql,
  incomingRequestsSql,
  pendingEitherWaySql,
  pendingRequestSql,
  sharesSomethingSql,
} from '../src/modules/friends/repo';

/** Friends and blocks: the three tables, their constraints, and every list query planned on an index. */
describe('migration 0015_friends', () => {
  it('creates the tables, keeps one pending request per direction, plans the lists on indexes, and goes down and up', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const tables = () =>
      sqlite
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'table'
             AND name IN ('friend_requests', 'friendships', 'blocks') ORDER BY name`,
        )
        .pluck()
        .all();

    expect((await migrator.migrateTo('0014_documents')).error).toBeUndefined();
    const user = sqlite.prepare(
      `INSERT INTO users (id, email, password_hash, first_name, last_name, phone_number, role, document_status,
         created_at) VALUES (?, ?, 'x', 'A', 'B', '', 'user', 'verified', '2026-01-01')`,
    );
    user.run('u1', 'a@uni.test');
    user.run('u2', 'b@uni.test');
    expect((await migrator.migrateTo('0015_friends')).error).toBeUndefined();
    expect(tables()).toEqual(['blocks', 'friend_requests', 'friendships']);

    const request = sqlite.prepare(
      `INSERT INTO friend_requests (id, from_id, to_id, status, created_at) VALUES (?, ?, ?, ?, '2026-01-02')`,
    );
    request.run('r1', 'u1', 'u2', 'pending');
    // A second pending request the same way is refused; a decided one, or the other way, is not.
    expect(() => request.run('r2', 'u1', 'u2', 'pending')).toThrow(/UNIQUE/);
    request.run('r3', 'u1', 'u2', 'rejected');
    request.run('r4', 'u2', 'u1', 'pending');
    expect(() => request.run('r5', 'u1', 'u1', 'pending')).toThrow(/CHECK/);
    expect(() => request.run('r6', 'u1', 'u2', 'maybe')).toThrow(/CHECK/);
    expect(() => request.run('r7', 'u1', 'nobody', 'pending')).toThrow(/FOREIGN/);
    const friendship = sqlite.prepare(
      `INSERT INTO friendships (user_a, user_b, created_at) VALUES (?, ?, '2026-01-02')`,
    );
    friendship.run('u1', 'u2');
    // One row per pair: the pair is stored ordered.
    expect(() => friendship.run('u2', 'u1')).toThrow(/CHECK/);
    const block = sqlite.prepare(
      `INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, 'x')`,
    );
    block.run('u1', 'u2');
    expect(() => block.run('u1', 'u2')).toThrow(/UNIQUE|PRIMARY/);
    expect(() => block.run('u1', 'u1')).toThrow(/CHECK/);

    const plan = (q: string) =>
      (
        sqlite.prepare(`EXPLAIN QUERY PLAN ${q}`).all(...Array.from(q.matchAll(/\?/g), () => 'x')) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join(' | ');
    const noScan = (p: string) =>
      expect(p).not.toMatch(/SCAN (friend_requests|friendships|blocks|r|f|b)\b(?! USING)/);
    const incoming = plan(incomingRequestsSql);
    expect(incoming).toMatch(/friend_requests_incoming_idx/);
    expect(incoming).not.toMatch(/TEMP B-TREE/);
    expect(plan(pendingRequestSql)).toMatch(/friend_requests_pending_pair_idx/);
    expect(plan(pendingEitherWaySql)).toMatch(/friend_requests_pending_pair_idx/);
    // A page of friends: both columns in key order, merged; no sort of all of a user's friends.
    const friends = plan(friendsPageSql);
    expect(friends).toMatch(/MERGE \(UNION ALL\)/);
    expect(friends).toMatch(/SEARCH friendships USING PRIMARY KEY \(user_a=\? AND user_b>\?\)/);
    expect(friends).toMatch(/friendships_user_b_idx \(user_b=\? AND user_a>\?\)/);
    expect(friends).not.toMatch(/TEMP B-TREE/);
    noScan(friends);
    expect(plan(friendshipSql)).toMatch(/PRIMARY KEY \(user_a=\? AND user_b=\?\)/);
    const either = plan(blockedEitherWaySql);
    expect(either).toMatch(/PRIMARY KEY \(blocker_id=\? AND blocked_id=\?\)/);
    noScan(either);
    const blocks = plan(blocksPageSql);
    expect(blocks).toMatch(/SEARCH b USING PRIMARY KEY \(blocker_id=\? AND blocked_id>\?\)/);
    expect(blocks).not.toMatch(/TEMP B-TREE/);
    expect(plan(blockedBySql)).toMatch(/PRIMARY KEY \(blocker_id=\? AND blocked_id=\?\)/);
    // A new group's members against the creator: primary-key probes per member, both ways.
    const withAny = plan(blockedWithAnySql(['b', 'c', 'd']).text);
    // (Listed blockers against the creator: blocks_blocked_idx, which holds both keys, as good a probe.)
    expect(
      withAny.match(
        /(PRIMARY KEY|blocks_blocked_idx) \((blocker_id=\? AND blocked_id|blocked_id=\? AND blocker_id)=\?\)/g,
      ),
    ).toHaveLength(2);
    noScan(withAny);
    expect(plan('SELECT blocker_id FROM blocks WHERE blocked_id = ?')).toMatch(/blocks_blocked_idx/);
    // An unblock's contact check: point lookups only.
    expect(plan(sharesSomethingSql)).not.toMatch(
      /SCAN (direct_conversations|group_members|friendships|m|o)\b(?! USING)/,
    );

    expect((await migrator.migrateTo('0014_documents')).error).toBeUndefined();
    expect(tables()).toEqual([]);
    expect(sqlite.prepare('SELECT count(*) FROM users').pluck().get()).toBe(2);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(tables()).toHaveLength(3);
    await db.destroy();
  });
});
