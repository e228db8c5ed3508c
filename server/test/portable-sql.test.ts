import fs from 'node:fs';
import type SQLite from 'better-sqlite3';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppNotification, CollegeCountryCode } from '@campus/protocol';
import { migrateToLatest, openDatabase, type DB } from '../src/lib/db/database';
import { dialectOf, inList, listSize, valuesList, type Dialect } from '../src/lib/db/portable-sql';
import type { AppDeps } from '../src/deps';
import { insertAttachment, pairScope, groupScope, visibleFiles } from '../src/modules/attachments/repo';
import { markMessagesRead, setReaction } from '../src/modules/chat/receipts';
import { buildSnapshot } from '../src/modules/chat/snapshot';
import {
  recentDirectMessages,
  recentGroupMessages,
  snapshotPageStatements,
} from '../src/modules/chat/snapshot-pages';
import { storeDirectMessage, storeGroupMessage } from '../src/modules/chat/writes';
import {
  replaceProfilesCollege,
  studentCountsOf,
  studentIdsOf,
  usersWithIds,
} from '../src/modules/colleges/admin-repo';
import { listedIn, writeRecords } from '../src/modules/colleges/repo';
import { feedPage } from '../src/modules/confessions/feed';
import { feedQ } from '../src/modules/confessions/feed-queries';
import { q as confessionQ } from '../src/modules/confessions/queries';
import { areContacts } from '../src/modules/directory/contacts';
import { searchUsers } from '../src/modules/directory/repo';
import { isBlockedWithAny } from '../src/modules/friends/blocks';
import {
  blockedWithAnySql,
  insertBlockSql,
  insertFriendshipSql,
  insertHeldRequestSql,
  orderedPair,
} from '../src/modules/friends/repo';
import { countStrangers, insertGroup } from '../src/modules/groups/service';
import {
  insertNotification,
  notificationPage,
  subscriptionsOf,
  upsertSubscription,
} from '../src/modules/notifications/repo';
import {
  insertReport,
  reportedCounts,
  reportListStatements,
  reportStatements,
} from '../src/modules/reports/repo';
import { suspendAccount, suspendRandom } from '../src/modules/reports/restrictions';
import { UserRefs } from '../src/modules/users';
import { inProcessChangeBus } from '../src/realtime/bus';
import { PgTransactor } from '../src/realtime/pg-transactor';
import { SqliteTransactor } from '../src/realtime/sqlite-transactor';
import { sql, type Transactor, type Tx } from '../src/realtime/transaction';
import { createTestSchema, type TestSchema } from './support/postgres';

/**
 * The feature SQL made portable (lib/db/portable-sql.ts) runs the same on SQLite and on PostgreSQL 15:
 * each scenario below runs on a fresh migrated database of each kind and expects the same answer. Without
 * PostgreSQL the suite fails, never skips (support/postgres.ts). The last block keeps SQLite-only SQL from
 * coming back: it reads every string in server/src for SQLite's own functions and syntax.
 */

interface Side {
  dialect: Dialect;
  db: DB;
  transactor: Transactor;
}

const NOW = Date.parse('2026-03-01T10:00:00.000Z');
const bus = () =>
  inProcessChangeBus((err) => {
    throw err;
  });

let schema: TestSchema;
/** The SQLite side's handle, for query plans. */
let liteHandle: SQLite.Database;
const sides: Side[] = [];
const closers: (() => Promise<void>)[] = [];

/** Runs `scenario` on both databases and answers both results (SQLite's first). */
async function onBoth<T>(scenario: (side: Side) => Promise<T>): Promise<[T, T]> {
  expect(sides.map((s) => s.dialect)).toEqual(['sqlite', 'postgres']);
  return [await scenario(sides[0]!), await scenario(sides[1]!)];
}

/** Expects `scenario` to answer `expected` on both databases. */
async function sameOnBoth<T>(expected: T, scenario: (side: Side) => Promise<T>): Promise<void> {
  const [lite, pg] = await onBoth(scenario);
  expect(lite, 'SQLite').toEqual(expected);
  expect(pg, 'PostgreSQL').toEqual(expected);
}

// ---- fixtures: users with fixed ids, so orders by id are known ----

const USERS = [
  ['u1', 'Ann', 'Lee'],
  ['u2', 'bob', 'Moe'],
  ['u3', 'Cid', 'Nash'],
  ['u4', 'dee', 'Olsen'],
  ['u5', 'Eve', 'Park'],
  ['u6', 'Fay', 'Quinn'],
] as const;

async function seedUsers(db: DB): Promise<void> {
  const at = new Date(NOW).toISOString();
  await db
    .insertInto('users')
    .values(
      USERS.map(([id, first, last]) => ({
        id,
        email: `${id}@uni.edu`,
        password_hash: 'x',
        first_name: first,
        last_name: last,
        phone_number: '0',
        role: 'user' as const,
        profile_picture_url: id === 'u1' ? '/p/u1.png' : null,
        course: null,
        year: null,
        bio: null,
        college: null,
        document_status: 'verified',
        document_deadline: null,
        document_url: null,
        document_submitted_at: null,
        created_at: at,
        last_active_at: at,
        academic_domain: null,
        current_document_id: null,
        rejection_reason: null,
        skill_level: null,
        branch: null,
      })),
    )
    .execute();
}

const commit = <T>(side: Side, fn: (tx: Tx) => Promise<T>) => side.transactor.commit(fn);

describe('the same SQL on SQLite and PostgreSQL', () => {
  beforeAll(async () => {
    const lite = openDatabase(':memory:');
    await migrateToLatest(lite.db);
    closers.push(() => lite.close());
    liteHandle = lite.sqlite;
    sides.push({
      dialect: 'sqlite',
      db: lite.db,
      transactor: new SqliteTransactor(lite.sqlite, { now: () => NOW, bus: bus() }),
    });
    schema = await createTestSchema();
    const pg = schema.open();
    await migrateToLatest(pg.db);
    sides.push({
      dialect: 'postgres',
      db: pg.db,
      transactor: await PgTransactor.open(pg.pool, { now: () => NOW, bus: bus() }),
    });
    for (const side of sides) await seedUsers(side.db);
  });

  afterAll(async () => {
    for (const close of closers) await close();
    await schema?.drop();
  });

  describe('portable-sql helpers', () => {
    it('sizes lists by powers of two and pads them without changing IN', () => {
      expect([0, 1, 2, 3, 4, 5, 9, 16_384].map(listSize)).toEqual([1, 1, 2, 4, 4, 8, 16, 16_384]);
      expect(() => listSize(16_385)).toThrow(RangeError);
      const list = inList((ids) => `x IN (${ids})`);
      expect(list(['a', 'b', 'c'])).toEqual({ text: 'x IN (?, ?, ?, ?)', params: ['a', 'b', 'c', 'c'] });
      expect(list([])).toEqual({ text: 'x IN (?)', params: [null] });
      // One text per size class, built once.
      expect(list(['a', 'b', 'c']).text).toBe(list(['d', 'e', 'f', 'g']).text);
      const table = valuesList((t) => `FROM ${t} p`);
      expect(table(['a', 'b', 'c'])).toEqual({
        text: 'FROM (VALUES (?, 0), (?, 1), (?, 2), (?, 3)) p',
        params: ['a', 'b', 'c', null],
      });
    });

    it('reads the dialect from the Kysely instance', () => {
      expect(sides.map((s) => dialectOf(s.db))).toEqual(['sqlite', 'postgres']);
    });

    it('an IN list and a VALUES table select the same rows on both databases', async () => {
      const names = inList((ids) =>
        sql<{ first_name: string }>(`SELECT first_name FROM users WHERE id IN (${ids}) ORDER BY id`),
      );
      const ordered = valuesList((t) =>
        sql<{ id: string }>(`SELECT u.id FROM ${t} p JOIN users u ON u.id = p.column1 ORDER BY p.column2`),
      );
      await sameOnBoth({ names: ['Ann', 'Cid', 'Eve'], none: [], ordered: ['u3', 'u1', 'u2'] }, (side) =>
        commit(side, async (tx) => {
          const some = names(['u5', 'u1', 'u3', 'nobody', 'u1']);
          const empty = names([]);
          const byPlace = ordered(['u3', 'nobody', 'u1', 'u2', 'u3x']);
          return {
            names: (await tx.all(some.text, ...some.params)).map((r) => r.first_name),
            none: await tx.all(empty.text, ...empty.params),
            ordered: (await tx.all(byPlace.text, ...byPlace.params)).map((r) => r.id),
          };
        }),
      );
    });
  });

  describe('friends', () => {
    it('ignores a second friendship, block or held request (ON CONFLICT DO NOTHING)', async () => {
      await sameOnBoth({ first: [1, 1, 1], again: [0, 0, 0] }, (side) =>
        commit(side, async (tx) => {
          const at = new Date(tx.now).toISOString();
          const write = () =>
            Promise.all([
              tx.run(insertFriendshipSql, ...orderedPair('u6', 'u5'), at),
              tx.run(insertBlockSql, 'u5', 'u6', at),
              tx.run(insertHeldRequestSql, 'u6', 'u5', at),
            ]);
          return { first: await write(), again: await write() };
        }),
      );
    });

    it('finds a block either way between a user and a list', async () => {
      await sameOnBoth({ none: false, empty: false, blocker: true, blocked: true, others: false }, (side) =>
        commit(side, async (tx) => {
          await tx.run(insertBlockSql, 'u4', 'u3', new Date(tx.now).toISOString());
          return {
            none: await isBlockedWithAny(tx, 'u1', ['u2', 'u3']),
            empty: await isBlockedWithAny(tx, 'u4', []),
            blocker: await isBlockedWithAny(tx, 'u4', ['u1', 'u3']),
            blocked: await isBlockedWithAny(tx, 'u3', ['u2', 'u4', 'u6']),
            others: await isBlockedWithAny(tx, 'u1', ['u3', 'u4']),
          };
        }),
      );
    });
  });

  describe('chat', () => {
    const refs = () => new UserRefs();
    const dm = (id: string, to: string, content: string) => ({ id, to, content });

    it('counts unread messages in the conversation upsert and lowers them on read, never below 0', async () => {
      await sameOnBoth({ afterSend: [2, 0], afterRead: 0 }, (side) =>
        commit(side, async (tx) => {
          const r = refs();
          await storeDirectMessage(tx, r, 'u1', dm('m1', 'u2', 'hi'));
          await storeDirectMessage(tx, r, 'u1', dm('m2', 'u2', 'there'));
          const unread = sql<{ unread_count: number; sent_count: number }>(
            'SELECT unread_count, sent_count FROM direct_conversations WHERE user_id = ? AND peer_id = ?',
          );
          const bob = await tx.first(unread, 'u2', 'u1');
          const ann = await tx.first(unread, 'u1', 'u2');
          await markMessagesRead(tx, r, 'u2', 'u1', ['m1', 'm2']);
          // The count drops by what changed, clamped at 0 (here it was lowered by hand first).
          await tx.run(sql('UPDATE direct_conversations SET unread_count = 1 WHERE user_id = ?'), 'u2');
          await storeDirectMessage(tx, r, 'u1', dm('m3', 'u2', 'again'));
          await tx.run(sql('UPDATE direct_conversations SET unread_count = 0 WHERE user_id = ?'), 'u2');
          await markMessagesRead(tx, r, 'u2', 'u1', ['m3']);
          return {
            afterSend: [bob?.unread_count, ann?.unread_count],
            afterRead: (await tx.first(unread, 'u2', 'u1'))?.unread_count,
          };
        }),
      );
    });

    it('builds the snapshot pages: newest per conversation, cards, reactions, in list order', async () => {
      const [lite, pg] = await onBoth((side) =>
        commit(side, async (tx) => {
          const r = refs();
          for (let i = 1; i <= 4; i++)
            await storeDirectMessage(tx, r, 'u3', dm(`s3-${i}`, 'u5', `to eve ${i}`));
          await storeDirectMessage(tx, r, 'u6', dm('s6-1', 'u3', 'from fay'));
          await setReaction(tx, 'u5', { messageId: 's3-4', emoji: '👍', toUserId: 'u3' });
          await setReaction(tx, 'u3', { messageId: 's3-4', emoji: '🎉', toUserId: 'u5' });
          const group = await insertGroup(tx, 'u3', { name: 'G', memberIds: ['u5', 'u6'] });
          for (let i = 1; i <= 3; i++)
            await storeGroupMessage(tx, r, i === 2 ? 'u6' : 'u3', {
              id: `g-${i}`,
              groupId: group.id,
              content: `g ${i}`,
            });
          const direct = await recentDirectMessages(tx, 'u3', ['u6', 'u5', 'nobody'], 2);
          const groups = await recentGroupMessages(tx, [group.id, 'no-group'], 2);
          return {
            direct: direct.map((m) => ({
              id: m.id,
              from: m.from,
              to: m.to.id,
              reactions: [...m.reactions].sort((a, b) => a.userId.localeCompare(b.userId)),
            })),
            groups: groups.map((m) => [m.id, m.from.firstName, m.group === group.id]),
          };
        }),
      );
      expect(lite).toEqual(pg);
      expect(lite.direct.map((m) => m.id)).toEqual(['s6-1', 's3-4', 's3-3']);
      expect(lite.direct[0]!.from).toEqual({
        id: 'u6',
        firstName: 'Fay',
        lastName: 'Quinn',
        profilePictureUrl: null,
      });
      expect(lite.direct[1]!.reactions).toEqual([
        { emoji: '🎉', userId: 'u3' },
        { emoji: '👍', userId: 'u5' },
      ]);
      expect(lite.groups).toEqual([
        ['g-3', 'Cid', true],
        ['g-2', 'Fay', true],
      ]);
    });

    it('reads a whole snapshot (who no row names through an IN list)', async () => {
      const [lite, pg] = await onBoth(async (side) => {
        const deps = { transactor: side.transactor } as AppDeps;
        const cid = await buildSnapshot(deps, 'u3');
        // The group's id is random: named alike on both sides.
        const named = (json: string) =>
          cid.groups.reduce((text, g, i) => text.replaceAll(g.id, `group-${i}`), json);
        return {
          cid: JSON.parse(named(JSON.stringify(cid))) as typeof cid,
          ann: await buildSnapshot(deps, 'u1'),
        };
      });
      expect(lite).toEqual(pg);
      expect(lite.cid.users.map((u) => u.id)).toEqual(['u3', 'u5', 'u6']);
      expect(lite.cid.messages.map((m) => m.id)).toContain('s6-1');
      // Ann is in no group: her own entry is read by id.
      expect(lite.ann.users.map((u) => [u.id, u.firstName])).toEqual([
        ['u1', 'Ann'],
        ['u2', 'bob'],
      ]);
    });
  });

  describe('groups', () => {
    it('counts strangers once each and refuses unknown or blocked members', async () => {
      await sameOnBoth({ strangers: 2, afterChat: 1, unknown: 'refused', blocked: 'refused' }, (side) =>
        commit(side, async (tx) => {
          const strangers = await countStrangers(tx, 'u2', ['u4', 'u6', 'u6', 'u2', 'nobody']);
          await storeDirectMessage(tx, new UserRefs(), 'u2', { id: 'gs-1', to: 'u4', content: 'hi' });
          const afterChat = await countStrangers(tx, 'u2', ['u4', 'u6']);
          const attempt = (memberIds: string[]) =>
            tx
              .savepoint((inner) => insertGroup(inner, 'u2', { name: 'x', memberIds }))
              .then(
                () => 'made',
                () => 'refused',
              );
          await tx.run(insertBlockSql, 'u6', 'u2', new Date(tx.now).toISOString());
          return {
            strangers,
            afterChat,
            unknown: await attempt(['u4', 'nobody']),
            blocked: await attempt(['u4', 'u6']),
          };
        }),
      );
    });
  });

  describe('confessions', () => {
    it('reads a feed page with the viewer’s reactions and each card’s newest comments', async () => {
      await sameOnBoth(
        {
          ids: ['c3', 'c2', 'c1'],
          mine: [true, false, false],
          reacted: [['funny', 'relatable'], [], ['relatable']],
          comments: [['k3-1', 'k3-2', 'k3-3'], [], ['k1-1']],
          commentMine: [[false, false, true], [], [true]],
        },
        (side) =>
          commit(side, async (tx) => {
            for (const [i, author] of ['u2', 'u2', 'u1'].entries()) {
              const id = `c${i + 1}`;
              await tx.run(
                confessionQ.insertConfession,
                id,
                author,
                `nick${i}`,
                `text ${i}`,
                'happy',
                null,
                new Date(NOW + i * 1000).toISOString(),
              );
              // Announced (the feed shows others' cards only then): as the publisher marks them.
              await tx.run(confessionQ.markPublished, i + 1, id);
            }
            const react = (c: string, user: string, type: string) =>
              tx.run(confessionQ.addReaction, c, user, type, new Date(NOW).toISOString());
            await react('c3', 'u1', 'relatable');
            await react('c3', 'u1', 'funny');
            await react('c3', 'u2', 'feelYou');
            await react('c1', 'u1', 'relatable');
            const comment = (id: string, c: string, author: string, ms: number) =>
              tx.run(
                confessionQ.insertComment,
                id,
                c,
                author,
                'nick',
                'hey',
                new Date(NOW + ms).toISOString(),
              );
            // The newest three of a card (CONFESSIONS.commentsPerCard), oldest first.
            await comment('k3-0', 'c3', 'u2', 0);
            await comment('k3-1', 'c3', 'u2', 1);
            await comment('k3-2', 'c3', 'u2', 2);
            await comment('k3-3', 'c3', 'u1', 3);
            await comment('k1-1', 'c1', 'u1', 1);
            return { ok: true };
          }).then(async () => {
            const page = await feedPage(side.transactor, {
              viewerId: 'u1',
              viewerCollege: null,
              page: 1,
              limit: 10,
            });
            const cards = page.confessions;
            return {
              ids: cards.map((c) => c.id),
              mine: cards.map((c) => c.isMine),
              reacted: cards.map((c) => [...c.myReactions].sort()),
              comments: cards.map((c) => c.comments.map((k) => k.id)),
              commentMine: cards.map((c) => c.comments.map((k) => k.isMine)),
            };
          }),
      );
    });
  });

  describe('notifications', () => {
    const note = (id: string, ms: number): AppNotification => ({
      id,
      type: 'confession_comment',
      title: 't',
      body: 'b',
      createdAt: new Date(NOW + ms).toISOString(),
      isRead: false,
      data: {},
    });

    it('keeps the newest 10 subscriptions in the order registered, even within one millisecond', async () => {
      await sameOnBoth(
        Array.from({ length: 10 }, (_, i) => `https://push.example/${String(i + 2).padStart(2, '0')}`),
        async (side) => {
          const at = new Date(NOW).toISOString();
          for (let i = 0; i < 12; i++) {
            const endpoint = `https://push.example/${String(i).padStart(2, '0')}`;
            await commit(side, (tx) =>
              upsertSubscription(tx, 'u4', { endpoint, p256dh: 'k', auth: 'a' }, at),
            );
          }
          return (await subscriptionsOf(side.db, 'u4')).map((s) => s.endpoint).sort();
        },
      );
    });

    it('pages newest first', async () => {
      await sameOnBoth({ first: ['n4', 'n3'], second: ['n2', 'n1'], read: [false, false] }, async (side) => {
        await commit(side, async (tx) => {
          for (const [id, ms] of [
            ['n1', 1],
            ['n3', 3],
            ['n2', 2],
            ['n4', 4],
          ] as const)
            await insertNotification(tx, 'u6', note(id, ms));
        });
        const first = await notificationPage(side.db, 'u6', 2, 0);
        const second = await notificationPage(side.db, 'u6', 2, 2);
        return {
          first: first.map((n) => n.id),
          second: second.map((n) => n.id),
          read: first.map((n) => n.isRead),
        };
      });
    });

    it('orders a millisecond’s notifications the same way on every page (ties broken by a real key)', async () => {
      const [lite, pg] = await onBoth(async (side) => {
        await commit(side, async (tx) => {
          for (const id of ['t-b', 't-a', 't-c']) await insertNotification(tx, 'u5', note(id, 50));
        });
        const all = (await notificationPage(side.db, 'u5', 10, 0)).map((n) => n.id);
        const paged = [
          ...(await notificationPage(side.db, 'u5', 1, 0)),
          ...(await notificationPage(side.db, 'u5', 1, 1)),
          ...(await notificationPage(side.db, 'u5', 1, 2)),
        ].map((n) => n.id);
        return { all, paged };
      });
      // SQLite: the order they were made in (rowid); PostgreSQL: by id. Both stable across pages.
      expect(lite).toEqual({ all: ['t-c', 't-a', 't-b'], paged: ['t-c', 't-a', 't-b'] });
      expect(pg).toEqual({ all: ['t-c', 't-b', 't-a'], paged: ['t-c', 't-b', 't-a'] });
    });
  });

  describe('attachments', () => {
    it('lists the files of the user’s groups and pairs only', async () => {
      await sameOnBoth(['f-group', 'f-pair-a', 'f-pair-b'], async (side) => {
        const groupId = await commit(side, async (tx) => {
          const group = await insertGroup(tx, 'u1', { name: 'files', memberIds: ['u2'] });
          const file = (key: string, scope: string) =>
            insertAttachment(tx, {
              key,
              ownerId: 'u2',
              scope,
              contentType: 'image/png',
              size: 1,
              fileName: `${key}.png`,
              createdAt: new Date(NOW).toISOString(),
            });
          await file('f-group', groupScope(group.id));
          await file('f-other-group', groupScope('g-none'));
          await file('f-pair-a', pairScope('u1:u2'));
          await file('f-pair-b', pairScope('u0:u1'));
          await file('f-pair-c', pairScope('u2:u3'));
          // Ends like a pair with u1 but is no pair.
          await file('f-fake', 'group:x:u1');
          await file('f-short', 'pair:');
          return group.id;
        });
        expect(groupId).toBeTruthy();
        const keys = ['f-group', 'f-other-group', 'f-pair-a', 'f-pair-b', 'f-pair-c', 'f-fake', 'f-short'];
        return (await visibleFiles(side.db, 'u1', keys)).map((f) => f.key).sort();
      });
    });
  });

  describe('directory', () => {
    it('tells contacts (a boolean on PostgreSQL) and searches names in any case', async () => {
      await sameOnBoth(
        { contact: true, stranger: false, search: ['u2'], email: ['u4'], wildcard: [] },
        async (side) => ({
          // u1 and u2 share a direct chat (the chat scenario).
          contact: await areContacts(side.db, 'u1', 'u2'),
          stranger: await areContacts(side.db, 'u1', 'u6'),
          search: (await searchUsers(side.db, 'u1', { q: 'BOB M', limit: 10 })).map((u) => u.id),
          email: (await searchUsers(side.db, 'u1', { q: 'U4@UNI.EDU', limit: 10 })).map((u) => u.id),
          wildcard: (await searchUsers(side.db, 'u1', { q: '%', limit: 10 })).map((u) => u.id),
        }),
      );
    });
  });

  describe('colleges', () => {
    const record = (name: string) => ({
      name,
      country: 'US' as CollegeCountryCode,
      stateCode: null,
      stateName: null,
      city: null,
      domains: [],
    });

    it('lists names in any case along the dialect’s index order', async () => {
      // Folded to lower case, then by bytes: '_' (0x5F) sorts before the letters, as it would not after
      // folding to upper case.
      await sameOnBoth(['_under U', 'alpha U', 'Beta U', 'beta v', 'Zeta U'], (side) =>
        commit(side, async (tx) => {
          await writeRecords(tx, ['Zeta U', 'beta v', 'alpha U', '_under U', 'Beta U'].map(record), 'test');
          return (await tx.all(listedIn[side.dialect].country, 'US')).map((r) => r.name);
        }),
      );
    });

    it('finds, counts and replaces the students of a college by the id in their profile JSON', async () => {
      await sameOnBoth(
        {
          counts: [
            ['c-a', 2],
            ['c-b', 1],
          ],
          ids: ['u1', 'u3'],
          replaced: 2,
          after: ['c-b', 'c-b', 'c-b'],
          users: 2,
        },
        (side) =>
          commit(side, async (tx) => {
            const profile = (id: string) => JSON.stringify({ id, name: id, country: 'US' });
            const set = sql('UPDATE users SET college = ? WHERE id = ?');
            await tx.run(set, profile('c-a'), 'u1');
            await tx.run(set, profile('c-a'), 'u3');
            await tx.run(set, profile('c-b'), 'u4');
            // A plain name (a JSON string) names no college id.
            await tx.run(set, JSON.stringify('Some Place'), 'u5');
            const counts = await studentCountsOf(tx, ['c-a', 'c-b', 'c-none'], side.dialect);
            const ids = await studentIdsOf(tx, 'c-a', side.dialect);
            const replaced = await replaceProfilesCollege(tx, 'c-a', profile('c-b'), side.dialect);
            const after = await studentIdsOf(tx, 'c-b', side.dialect);
            const colleges = sql<{ college: string }>(
              'SELECT college FROM users WHERE id IN (?, ?, ?) ORDER BY id',
            );
            return {
              counts: [...counts].sort(),
              ids,
              replaced,
              after: (await tx.all(colleges, ...after)).map(
                (r) => (JSON.parse(r.college) as { id: string }).id,
              ),
              users: (await usersWithIds(tx, ['u1', 'u5', 'nobody'])).length,
            };
          }),
      );
    });
  });

  describe('reports', () => {
    it('counts evidence and upheld reports, and lets a later suspension win', async () => {
      await sameOnBoth(
        {
          evidence: [
            ['r1', 2],
            ['r2', 0],
            ['r3', 0],
          ],
          counts: [{ reported_id: 'u6', reports: 3, upheld: 1 }],
          random: '2026-05-01T00:00:00.000Z',
          account: '2026-04-01T00:00:00.000Z',
        },
        (side) =>
          commit(side, async (tx) => {
            const file = (id: string, evidence: string | null, ms: number) =>
              insertReport(tx, {
                id,
                reporterId: 'u1',
                reportedId: 'u6',
                contextKind: 'random_room',
                contextRef: null,
                reason: 'spam',
                note: null,
                evidence,
                createdAt: new Date(NOW + ms).toISOString(),
              });
            const message = { from: 'reported', text: 'x', at: new Date(NOW).toISOString() };
            await file('r1', JSON.stringify({ messages: [message, message] }), 1);
            await file('r2', null, 2);
            await file('r3', JSON.stringify({ messages: 'not a list' }), 3);
            const at = new Date(NOW).toISOString();
            await tx.run(reportStatements.decide, 'upheld', 'warn', null, null, null, 'u2', at, 'r2');
            const list = reportListStatements[side.dialect];
            const page = await tx.all(list.openPage, '', '', 10);
            const one = await tx.first(list.listById, 'r2');
            await tx.run(reportStatements.ensureRestriction, 'u6', at);
            await suspendRandom(tx, 'u6', '2026-05-01T00:00:00.000Z');
            await suspendRandom(tx, 'u6', '2026-04-01T00:00:00.000Z');
            await suspendAccount(tx, 'u6', '2026-04-01T00:00:00.000Z');
            const restriction = await tx.first(reportStatements.restriction, 'u6');
            return {
              evidence: [...page, ...(one ? [one] : [])]
                .map((r) => [r.id, Number(r.evidence_count)] as const)
                .sort(),
              counts: (await reportedCounts(tx, ['u6', 'u5'])).map((c) => ({
                reported_id: c.reported_id,
                reports: Number(c.reports),
                upheld: Number(c.upheld),
              })),
              random: restriction?.random_suspended_until,
              account: restriction?.account_suspended_until,
            };
          }),
      );
    });
  });

  describe('query plans on SQLite (the list statements that left json_each)', () => {
    const plan = (text: string) =>
      (
        liteHandle
          .prepare(`EXPLAIN QUERY PLAN ${text}`)
          .all(...Array<null>((text.match(/\?/g) ?? []).length).fill(null)) as { detail: string }[]
      )
        .map((row) => row.detail)
        .join('; ');
    const noScan = (p: string) => expect(p).not.toMatch(/\bSCAN (?!\d+-ROW VALUES|CONSTANT ROW)/);

    it('read each listed key along its index', () => {
      const ids = ['a', 'b', 'c'];
      const direct = plan(snapshotPageStatements.directSql(ids).text);
      expect(direct).toMatch(/direct_messages_pair_seq_idx \(pair=\? AND seq>\?\)/);
      noScan(direct);
      const group = plan(snapshotPageStatements.groupSql(ids).text);
      expect(group).toMatch(/group_messages_group_seq_idx \(group_id=\? AND seq>\?\)/);
      noScan(group);
      expect(plan(snapshotPageStatements.reactionsSql(ids).text)).toMatch(
        /SEARCH message_reactions USING PRIMARY KEY \(message_id=\?\)$/,
      );
      const mine = plan(feedQ.myReactionsIn(ids).text);
      expect(mine).toMatch(/\(user_id=\? AND confession_id=\?\)/);
      noScan(mine);
      const comments = plan(feedQ.newestComments(ids).text);
      expect(comments).toMatch(/confession_comments_confession_idx \(confession_id=\?\)/);
      noScan(comments);
      noScan(plan(blockedWithAnySql(ids).text));
    });

    it('walk the NOCASE index for the college lists (only equal names sorted by id)', () => {
      for (const text of [listedIn.sqlite.country, listedIn.sqlite.state]) {
        const p = plan(text);
        expect(p).toMatch(/colleges_(country|state)_idx/);
        expect(p).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      }
    });
  });
});

// ---- the guard: no SQLite-only SQL in server/src outside the places that choose by dialect ----

const SRC = path.join(__dirname, '../src');

/** SQLite's own functions and syntax, which PostgreSQL 15 does not have (portable-sql.ts says what to write). */
const SQLITE_ONLY: { name: string; pattern: RegExp }[] = [
  {
    name: 'JSON function',
    pattern:
      /\bjson_(each|extract|object|group_array|group_object|array_length|type|valid|set|insert|replace|remove|patch|quote|tree)\b/i,
  },
  {
    name: 'INSERT OR …',
    pattern: /\bINSERT\s+OR\s+(IGNORE|REPLACE|ABORT|FAIL|ROLLBACK)\b|\bREPLACE\s+INTO\b/i,
  },
  { name: 'rowid', pattern: /\b_?rowid_?\b/i },
  { name: 'NOCASE', pattern: /\bNOCASE\b/i },
  { name: 'date function', pattern: /\b(julianday|strftime|unixepoch|datetime)\s*\(/i },
  {
    name: 'SQLite function',
    pattern:
      /\b(ifnull|printf|instr|group_concat|total|glob|typeof|zeroblob|randomblob|last_insert_rowid|changes)\s*\(/i,
  },
  { name: 'LIMIT -1', pattern: /\bLIMIT\s+-\s*1\b/i },
  { name: 'scalar max/min', pattern: /\b(max|min)\s*\((?:[^()]|\([^()]*\))*,/i },
  { name: 'SUM of a comparison', pattern: /\bsum\s*\(\s*[\w.]+\s*(=|<>|!=|<|>)/i },
  { name: 'unquoted camelCase alias', pattern: /\bAS\s+[a-z]+[A-Z]\w*/ },
  { name: 'ON CONFLICT without a target', pattern: /\bON\s+CONFLICT\s+DO\s+UPDATE\b/i },
  { name: 'PRAGMA', pattern: /\bPRAGMA\b/i },
];

/**
 * Where SQLite-only SQL stays on purpose: file (under server/src) → the rules it may break, and why. A file
 * under one of the DIRECTORIES is not read at all.
 */
const DIRECTORIES = [
  // Each migration says where PostgreSQL needs something else (migrations/dialect.ts).
  'lib/db/migrations/',
];
const ALLOWED: Record<string, { rules: string[]; why: string }> = {
  'lib/redis-rates.ts': { rules: ['LIMIT -1', 'scalar max/min'], why: 'a Lua script for Redis, not SQL' },
  'modules/colleges/repo.ts': {
    rules: ['NOCASE'],
    why: 'the SQLite branch of listedIn (its index is NOCASE)',
  },
  'modules/colleges/admin-repo.ts': {
    rules: ['JSON function'],
    why: 'the SQLite branch of profileCollegeId',
  },
  'modules/reports/repo.ts': { rules: ['JSON function'], why: 'both branches of evidenceCount' },
  'modules/notifications/repo.ts': { rules: ['rowid'], why: 'the SQLite branch of SAME_MS_ORDER' },
  // The SQLite engine's own statements: PostgreSQL has pg-transactor.ts and pg-change-log.ts.
  'realtime/change-log.ts': {
    rules: ['JSON function'],
    why: "the SQLite change log (pg-change-log.ts is PostgreSQL's)",
  },
  'realtime/sqlite-transactor.ts': {
    rules: ['PRAGMA'],
    why: "data_version of the SQLite engine's own handle (pg-transactor.ts is PostgreSQL's)",
  },
};

/** Every string literal and template text of a file (the SQL), with its line. */
function stringsOf(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      out.push({ line, text: node.text });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('SQLite-only SQL', () => {
  it('appears nowhere in server/src but where it is chosen by dialect (or listed here, with why)', () => {
    const found: string[] = [];
    const used = new Set<string>();
    for (const file of sourceFiles(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      if (DIRECTORIES.some((dir) => rel.startsWith(dir))) continue;
      // Parsed only when the file's text has a hit somewhere (most have none).
      const raw = fs.readFileSync(file, 'utf8');
      if (!SQLITE_ONLY.some((rule) => rule.pattern.test(raw))) continue;
      for (const { line, text } of stringsOf(file, raw)) {
        for (const rule of SQLITE_ONLY) {
          if (!rule.pattern.test(text)) continue;
          if (ALLOWED[rel]?.rules.includes(rule.name)) {
            used.add(`${rel}: ${rule.name}`);
            continue;
          }
          found.push(`${rel}:${line} ${rule.name}: ${text.replace(/\s+/g, ' ').trim().slice(0, 120)}`);
        }
      }
    }
    expect(found, 'write the portable form (lib/db/portable-sql.ts)').toEqual([]);
    // An exception nobody needs any more goes from the list.
    const listed = Object.entries(ALLOWED).flatMap(([rel, { rules }]) => rules.map((r) => `${rel}: ${r}`));
    expect(
      listed.filter((entry) => !used.has(entry)),
      'stale ALLOWED entries',
    ).toEqual([]);
  });
});
