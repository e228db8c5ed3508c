import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientFrame, GroupMessage } from '@campus/protocol';
import { openUserDatabase, writeDirectMessage, writeGroupMessage, type SyncClient } from '../src';
import { OpenRooms } from '../src/features/chat/open-rooms';
import { readCursor } from '../src/meta';
import { ack, deliver } from './support/engine';
import { BO, CY, ME, incoming, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

const GROUP = 'group-study';
let n = 0;
function groupMessage(content: string, from = BO, group = GROUP): GroupMessage {
  n += 1;
  return {
    id: crypto.randomUUID(),
    from,
    group,
    content,
    timestamp: new Date(Date.parse('2026-11-23T10:00:00.000Z') + n * 1000).toISOString(),
    attachmentUrl: null,
    attachmentType: null,
    status: 'sent',
  };
}

describe('conversations', () => {
  it('keeps snippet, time, unread count and order as messages arrive and are read', async () => {
    const c = (client = makeClient());
    const long = 'This message is definitely longer than thirty characters';
    const first = incoming(BO, 'hi there');
    const second = incoming(CY, 'hey');
    const last = incoming(BO, long);
    await deliver(c, [
      { type: 'receive_message', message: first },
      { type: 'receive_message', message: second },
      { type: 'receive_message', message: last },
    ]);
    expect(await readCursor(c.db)).toBe(3);

    const ordered = await c.db.conversations.orderBy('lastMessageTimestamp').reverse().toArray();
    expect(ordered.map((row) => row.id)).toEqual([BO.id, CY.id]);
    const bo = ordered[0]!;
    expect(bo).toMatchObject({ name: 'Bo Kim', avatarUrl: '/a/bo.png', unreadCount: 2, isGroup: false });
    expect(bo.lastMessageSnippet).toBe('This message is definitely lon...');

    // My own message moves Cy to the top without counting as unread.
    await c.run(writeDirectMessage, CY, 'my reply');
    const top = await c.db.conversations.orderBy('lastMessageTimestamp').reverse().first();
    expect(top).toMatchObject({ id: CY.id, unreadCount: 1, lastMessageSnippet: 'my reply' });

    // A read event with me as reader (e.g. from my other tab) lowers the badge by what became read.
    await deliver(c, [
      {
        type: 'peer_read_messages',
        readerId: ME.id,
        messageIds: [last.id],
        status: 'read',
        chatPartnerId: BO.id,
        groupId: null,
      },
    ]);
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(1);
    expect((await c.db.messages.get(last.id))?.status).toBe('read');
  });

  it('a read on another device lowers unread by the messages that became read, as the server counts', async () => {
    const c = (client = makeClient());
    const messages = ['a', 'b', 'c'].map((text) => incoming(BO, text));
    await deliver(
      c,
      messages.map((message) => ({ type: 'receive_message' as const, message })),
    );
    const ids = messages.map((m) => m.id);
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(3);
    const readBy = (messageIds: string[]) =>
      deliver(c, [
        {
          type: 'peer_read_messages',
          readerId: ME.id,
          messageIds,
          status: 'read',
          chatPartnerId: BO.id,
          groupId: null,
        },
      ]);
    await readBy([ids[0]!]);
    expect(await readCursor(c.db)).toBe(4);
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(2);
    // The same messages read again (another tab) and an unknown id change nothing.
    await readBy([ids[0]!, 'not-cached']);
    expect(await readCursor(c.db)).toBe(5);
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(2);
    await readBy([ids[1]!, ids[2]!]);
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(0);
  });

  it('moves own message statuses only forward and replaces reactions per user', async () => {
    const c = (client = makeClient());
    const id = await c.run(writeDirectMessage, BO, 'status check');
    const own = (await c.db.messages.get(id))!;
    await deliver(c, [{ type: 'receive_message', message: { ...own, status: 'sent' } }]);
    await ack(c);
    expect((await c.db.messages.get(id))?.status).toBe('sent');
    const read = {
      type: 'peer_read_messages' as const,
      readerId: BO.id,
      messageIds: [id],
      chatPartnerId: ME.id,
      groupId: null,
    };
    await deliver(c, [
      { ...read, status: 'read' },
      { ...read, status: 'delivered' }, // late delivery receipt
      { type: 'chat-reaction', messageId: id, emoji: '👍', fromUserId: BO.id, toUserId: ME.id },
      { type: 'chat-reaction', messageId: id, emoji: '😂', fromUserId: BO.id, toUserId: ME.id },
    ]);
    expect(await readCursor(c.db)).toBe(5);
    const row = await c.db.messages.get(id);
    expect(row?.status).toBe('read');
    expect(row?.reactions).toEqual([{ emoji: '😂', userId: BO.id }]);
  });
});

describe('groups', () => {
  it('shows a joined group, sends to it optimistically and counts members’ messages as unread', async () => {
    const c = (client = makeClient());
    const group = {
      id: 'g1',
      name: 'Study',
      createdAt: '2026-11-23T08:00:00.000Z',
      createdBy: ME.id,
      members: [ME, BO],
      avatarUrl: null,
    };
    await deliver(c, [{ type: 'group_joined', group }]);
    expect(await c.db.conversations.get('g1')).toMatchObject({
      name: 'Study',
      isGroup: true,
      unreadCount: 0,
    });
    const id = await c.run(writeGroupMessage, 'g1', 'hello group');
    expect(await c.db.groupMessages.get(id)).toMatchObject({ status: 'sending', group: 'g1', from: ME });
    expect((await c.db.conversations.get('g1'))?.lastMessageSnippet).toBe('hello group');
    const stored = { ...groupMessage('hello group', ME, 'g1'), id };
    await deliver(c, [
      { type: 'receive_group_message', message: stored },
      { type: 'receive_group_message', message: { ...groupMessage('hi all', BO, 'g1') } },
    ]);
    expect((await c.db.conversations.get('g1'))?.unreadCount).toBe(1);
    expect((await c.db.groupMessages.get(id))?.status).toBe('sent');
    // The stored copy settled the queued send even though its ack never came.
    expect(await c.db.outbox.count()).toBe(0);
  });

  it('does not count messages of the open group as unread', async () => {
    const c = (client = makeClient());
    await deliver(c, [
      { type: 'receive_group_message', message: groupMessage('one') },
      { type: 'receive_group_message', message: groupMessage('two') },
    ]);
    expect((await c.db.conversations.get(GROUP))?.unreadCount).toBe(2);
    const leave = c.joinGroup(GROUP);
    await c.markGroupSeen(GROUP);
    expect((await c.db.conversations.get(GROUP))?.unreadCount).toBe(0);
    await deliver(c, [{ type: 'receive_group_message', message: groupMessage('while open') }], {
      openGroupId: GROUP,
    });
    expect(await readCursor(c.db)).toBe(3);
    expect(await c.db.conversations.get(GROUP)).toMatchObject({
      unreadCount: 0,
      lastMessageSnippet: 'while open',
    });
    leave();
    await deliver(c, [{ type: 'receive_group_message', message: groupMessage('after leaving') }]);
    expect((await c.db.conversations.get(GROUP))?.unreadCount).toBe(1);
  });

  it('still sends read marks of a group opened right after leaving one quickly', async () => {
    // IndexedDB (fake-indexeddb) runs on setImmediate, so that one stays real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const sent: ClientFrame[] = [];
      const rooms = new OpenRooms({
        db: openUserDatabase(ME.id, { indexedDB: new IDBFactory(), IDBKeyRange }),
        send: (frame) => sent.push(frame) > 0,
      });
      const joins = (groupId: string) =>
        sent.filter((frame) => frame.type === 'join_group' && frame.groupId === groupId);
      // G1: opened, seen within the second (deferred), left before the deferred mark went.
      const leave = rooms.joinGroup('g1');
      await rooms.markGroupSeen('g1');
      leave();
      rooms.joinGroup('g2');
      expect(joins('g2')).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(500);
      await rooms.markGroupSeen('g2');
      await vi.advanceTimersByTimeAsync(2000);
      expect(joins('g2')).toHaveLength(2);
      rooms.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a group read on another device clears the unread count here, keeping what came after the mark', async () => {
    const c = (client = makeClient());
    const [first, second] = await deliver(c, [
      { type: 'receive_group_message', message: groupMessage('one') },
      { type: 'receive_group_message', message: groupMessage('two') },
    ]);
    expect((await c.db.conversations.get(GROUP))?.unreadCount).toBe(2);
    // Another device read up to the first message only (it had not heard the second yet).
    await deliver(c, [{ type: 'group_read', groupId: GROUP, readSeq: first!.seq }]);
    expect((await c.db.conversations.get(GROUP))?.unreadCount).toBe(1);
    await deliver(c, [{ type: 'group_read', groupId: GROUP, readSeq: second!.seq }]);
    expect((await c.db.conversations.get(GROUP))?.unreadCount).toBe(0);
  });
});
