import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIRECT_LIMITS,
  markMessagesDelivered,
  markMessagesRead,
  sendDirectMessage,
  sendGroupMessage,
  setReaction,
  undeliveredTo,
} from '../src/modules/chat';
import { listConversations, listUserGroups } from '../src/modules/chat';
import { buildSnapshot } from '../src/modules/chat/snapshot';
import { createGroup } from '../src/modules/groups';
import { insertUser, userRefsOf } from '../src/modules/users';
import { rowOf, rowsOf, valueOf } from './support/sql';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * Chat's writes through the engine's transaction interface (the functions the realtime handlers and REST
 * routes call), checked against what they store and the changes they emit.
 */
let server: TestServer;

async function user(name: string): Promise<string> {
  const row = await insertUser(
    server.deps.db,
    {
      email: `${name}-${randomUUID()}@uni.test`,
      passwordHash: 'x',
      firstName: name,
      lastName: 'T',
      phoneNumber: '1',
      role: 'user',
    },
    Date.now(),
  );
  return row.id;
}

/** The changes logged after `seq`, as [type, audiences] (one row per audience, grouped here: portable). */
async function changesAfter(seq: number): Promise<[string, string[]][]> {
  const rows = await rowsOf<{ seq: number; type: string; audience: string }>(
    server,
    `SELECT l.seq, l.type, a.audience FROM change_log l
       JOIN change_audience a ON a.seq = l.seq WHERE l.seq > ? ORDER BY l.seq`,
    seq,
  );
  const bySeq = new Map<number, [string, string[]]>();
  for (const row of rows) {
    const change = bySeq.get(row.seq) ?? [row.type, []];
    change[1].push(row.audience);
    bySeq.set(row.seq, change);
  }
  return [...bySeq.values()].map(([type, audiences]) => [type, audiences.sort()]);
}

const lastSeq = async () => (await valueOf<number>(server, 'SELECT coalesce(max(seq), 0) FROM change_log'))!;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('chat writes on the transaction interface', () => {
  it('delivery and read receipts, reactions, and a resend that returns the message as it is now', async () => {
    const [a, b] = [await user('Ann'), await user('Bob')];
    const refs = userRefsOf(server.deps);
    const { transactor } = server.deps;
    const id = randomUUID();
    const sent = await sendDirectMessage(server.deps, a, { id, to: b, content: 'hi' });
    for (let i = 1; i < DIRECT_LIMITS.unansweredMessages; i++)
      await sendDirectMessage(server.deps, a, { id: randomUUID(), to: b, content: `m${i}` });
    await expect(
      sendDirectMessage(server.deps, a, { id: randomUUID(), to: b, content: 'one too many' }),
    ).rejects.toMatchObject({ code: 'awaitingReply', status: 403 });

    const before = await lastSeq();
    const pending = await transactor.commit((tx) => undeliveredTo(tx, b, before));
    expect(pending.get(a)).toHaveLength(DIRECT_LIMITS.unansweredMessages);
    expect(pending.get(a)![0]).toBe(id);
    await transactor.commit((tx) => markMessagesDelivered(tx, b, pending));
    await transactor.commit((tx) => markMessagesRead(tx, refs, b, a, [id, 'not-a-message']));
    // Read again: nothing changes, nothing is emitted.
    await transactor.commit((tx) => markMessagesRead(tx, refs, b, a, [id]));
    await transactor.commit((tx) => setReaction(tx, b, { messageId: id, emoji: '👍', toUserId: a }));
    await expect(
      transactor.commit((tx) => setReaction(tx, b, { messageId: id, emoji: '👍', toUserId: b })),
    ).rejects.toMatchObject({ code: 'unknownMessage' });
    const both = [`u:${a}`, `u:${b}`].sort();
    expect(await changesAfter(before)).toEqual([
      ['peer_read_messages', both],
      ['peer_read_messages', both],
      ['chat-reaction', both],
    ]);

    const again = await sendDirectMessage(server.deps, a, { id, to: b, content: 'hi' });
    expect(again).toMatchObject({
      id,
      seq: sent.seq,
      status: 'read',
      reactions: [{ emoji: '👍', userId: b }],
    });
    const unread = await rowOf<{ n: number }>(
      server,
      'SELECT unread_count AS n FROM direct_conversations WHERE user_id = ? AND peer_id = ?',
      b,
      a,
    );
    expect(unread?.n).toBe(DIRECT_LIMITS.unansweredMessages - 1);
  });

  it('a group is made once per member, told to each member, and only members write to it', async () => {
    const [a, b, c] = [await user('Cat'), await user('Dan'), await user('Eve')];
    const before = await lastSeq();
    const group = await createGroup(server.deps, a, { name: 'Lab', memberIds: [b, c, b, a] });
    expect(group.members.map((m) => m.id)).toEqual([a, b, c]);
    const message = await sendGroupMessage(server.deps, c, {
      id: randomUUID(),
      groupId: group.id,
      content: 'yo',
    });
    expect(message.from).toMatchObject({ id: c, firstName: 'Eve' });
    const outsider = await user('Out');
    await expect(
      sendGroupMessage(server.deps, outsider, { id: randomUUID(), groupId: group.id, content: 'hi' }),
    ).rejects.toMatchObject({ code: 'notGroupMember', status: 403 });
    expect(await changesAfter(before)).toEqual([
      ['group_joined', [a, b, c].map((id) => `u:${id}`).sort()],
      ['receive_group_message', [`g:${group.id}`]],
    ]);
  });

  it('a group message writes no row of groups, yet moves its group first in every list', async () => {
    const [a, b] = [await user('Fay'), await user('Gus')];
    const older = await createGroup(server.deps, a, { name: 'Older', memberIds: [b] });
    const newer = await createGroup(server.deps, a, { name: 'Newer', memberIds: [b] });
    const orders = async () => ({
      talk: (await listConversations(server.deps.db, b, 10)).map((c) => c.name),
      groups: (await listUserGroups(server.deps.db, b)).map((g) => g.name),
      snapshot: (await buildSnapshot(server.deps, b)).conversations.map((c) => c.name),
    });
    // Before any message a group sorts by when it was made.
    expect(await orders()).toEqual({
      talk: ['Newer', 'Older'],
      groups: ['Newer', 'Older'],
      snapshot: ['Newer', 'Older'],
    });

    const row = `SELECT * FROM groups WHERE id = ?`;
    const before = await rowOf(server, row, older.id);
    await sendGroupMessage(server.deps, a, { id: randomUUID(), groupId: older.id, content: 'bump' });
    expect(await rowOf(server, row, older.id)).toEqual(before);
    expect(await orders()).toEqual({
      talk: ['Older', 'Newer'],
      groups: ['Older', 'Newer'],
      snapshot: ['Older', 'Newer'],
    });
    const [first, second] = await listConversations(server.deps.db, b, 10);
    expect(first).toMatchObject({ id: older.id, lastMessageSnippet: 'bump', unreadCount: 1 });
    expect(second).toMatchObject({ id: newer.id, unreadCount: 0 });
  });
});
