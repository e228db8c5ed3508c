import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncClient } from '../src';
import { readCursor } from '../src/meta';
import { FakeServer, waitFor } from './support/fake-server';
import { BO, CY, ME, incoming, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

describe('pull and cursor', () => {
  it('pulls once from its stored cursor, applies the pages, advances it, and ignores changes at or below it', async () => {
    const server = new FakeServer(ME);
    server.pageSize = 2;
    for (let i = 0; i < 5; i += 1)
      server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, `m${i}`) });
    client = makeClient(server);
    client.start();
    await waitFor(async () => expect(await readCursor(client!.db)).toBe(5));
    expect(server.framesOfType('pull').map((f) => f.cursor)).toEqual([0]);
    expect(await client.db.messages.count()).toBe(5);
    expect((await client.db.conversations.get(BO.id))?.unreadCount).toBe(5);

    // The same change pushed again (a retransmission) and an old page: nothing is applied twice.
    const again = server.log[4]!;
    for (const socket of server.live) {
      socket.deliver(again);
      socket.deliver({ type: 'changes', changes: server.log.slice(0, 3), cursor: 3, hasMore: false });
    }
    server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, 'fresh') });
    await waitFor(async () => expect(await readCursor(client!.db)).toBe(6));
    expect((await client.db.conversations.get(BO.id))?.unreadCount).toBe(6);
    expect(await client.db.messages.count()).toBe(6);

    // After a reconnect the pull starts from the stored cursor.
    server.cutAll();
    await waitFor(() => expect(server.framesOfType('pull').at(-1)?.cursor).toBe(6));
  });

  it('holds live pushes heard during a pull until its last page, so none is skipped', async () => {
    const server = new FakeServer(ME);
    server.pageSize = 1;
    for (let i = 0; i < 3; i += 1)
      server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, `old${i}`) });
    client = makeClient(server);
    client.start();
    // While the pages are being pulled, a new message is pushed live (seq 4, ahead of the pages).
    await waitFor(() => expect(server.framesOfType('pull').length).toBeGreaterThan(0));
    server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, 'live') });
    await waitFor(async () => expect(await client!.db.messages.count()).toBe(4));
    expect(await readCursor(client.db)).toBe(4);
  });

  it('sync_reset replaces the synced tables but keeps the outbox and pending messages', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    await client.db.conversations.put({
      id: 'stale',
      name: 'Gone',
      avatarUrl: null,
      lastMessageSnippet: 'old',
      lastMessageTimestamp: '2020-01-01T00:00:00.000Z',
      unreadCount: 3,
      isGroup: false,
      email: null,
      lastActiveAt: null,
    });
    await client.db.messages.put({ ...incoming(CY, 'stale message'), peerId: CY.id });
    const pendingId = await client.sendDirectMessage(BO, 'queued while offline');
    server.answering = false;
    const snapshotMessage = incoming(BO, 'from the snapshot', { seq: 41 });
    server.snapshot = {
      conversations: [
        {
          id: BO.id,
          name: 'Bo Kim',
          avatarUrl: null,
          lastMessageSnippet: 'from the snapshot',
          lastMessageTimestamp: snapshotMessage.timestamp,
          unreadCount: 1,
          isGroup: false,
          email: null,
          lastActiveAt: null,
        },
      ],
      groups: [],
      messages: [snapshotMessage],
      groupMessages: [],
      users: [],
    };
    for (let i = 0; i < 42; i += 1)
      server.emit({
        type: 'chat-reaction',
        seq: 0,
        messageId: 'x',
        emoji: '',
        fromUserId: BO.id,
        toUserId: ME.id,
      });
    client.start();
    await waitFor(async () => expect(await readCursor(client!.db)).toBe(42));
    expect(await client.db.conversations.get('stale')).toBeUndefined();
    expect((await client.db.conversations.get(BO.id))?.lastMessageSnippet).toBe('queued while offline');
    const ids = (await client.db.messages.toArray()).map((m) => m.id).sort();
    expect(ids).toEqual([pendingId, snapshotMessage.id].sort());
    expect(await client.db.outbox.count()).toBe(1);
    await waitFor(() => expect(server.framesOfType('send_message').map((f) => f.id)).toEqual([pendingId]));
  });
});

describe('conversations', () => {
  it('keeps snippet, time, unread count and order as messages arrive and are read', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    const long = 'This message is definitely longer than thirty characters';
    server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, 'hi there') });
    server.emit({ type: 'receive_message', seq: 0, message: incoming(CY, 'hey') });
    const last = server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, long) });
    await waitFor(async () => expect(await readCursor(client!.db)).toBe(3));

    const ordered = await client.db.conversations.orderBy('lastMessageTimestamp').reverse().toArray();
    expect(ordered.map((c) => c.id)).toEqual([BO.id, CY.id]);
    const bo = ordered[0]!;
    expect(bo).toMatchObject({ name: 'Bo Kim', avatarUrl: '/a/bo.png', unreadCount: 2, isGroup: false });
    expect(bo.lastMessageSnippet).toBe('This message is definitely lon...');

    // My own message moves Cy to the top without counting as unread.
    await client.sendDirectMessage(CY, 'my reply');
    const top = await client.db.conversations.orderBy('lastMessageTimestamp').reverse().first();
    expect(top).toMatchObject({ id: CY.id, unreadCount: 1, lastMessageSnippet: 'my reply' });

    // A read event with me as reader (e.g. from my other tab) lowers the badge by what became read.
    const lastId = last.type === 'receive_message' ? last.message.id : '';
    server.emit({
      type: 'peer_read_messages',
      seq: 0,
      readerId: ME.id,
      messageIds: [lastId],
      status: 'read',
      chatPartnerId: BO.id,
      groupId: null,
    });
    await waitFor(async () => expect((await client!.db.conversations.get(BO.id))?.unreadCount).toBe(1));
    expect((await client.db.messages.get(lastId))?.status).toBe('read');
  });

  it('a read on another device lowers unread by the messages that became read, as the server counts', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c']) {
      const change = server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, text) });
      if (change.type === 'receive_message') ids.push(change.message.id);
    }
    await waitFor(async () => expect((await client!.db.conversations.get(BO.id))?.unreadCount).toBe(3));
    const readBy = (messageIds: string[]) =>
      server.emit({
        type: 'peer_read_messages',
        seq: 0,
        readerId: ME.id,
        messageIds,
        status: 'read',
        chatPartnerId: BO.id,
        groupId: null,
      });
    readBy([ids[0]!]);
    await waitFor(async () => expect(await readCursor(client!.db)).toBe(4));
    expect((await client.db.conversations.get(BO.id))?.unreadCount).toBe(2);
    // The same messages read again (another tab) and an unknown id change nothing.
    readBy([ids[0]!, 'not-cached']);
    await waitFor(async () => expect(await readCursor(client!.db)).toBe(5));
    expect((await client.db.conversations.get(BO.id))?.unreadCount).toBe(2);
    readBy([ids[1]!, ids[2]!]);
    await waitFor(async () => expect((await client!.db.conversations.get(BO.id))?.unreadCount).toBe(0));
  });

  it('moves own message statuses only forward and replaces reactions per user', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.start();
    const id = await client.sendDirectMessage(BO, 'status check');
    await waitFor(async () => expect((await client!.db.messages.get(id))?.status).toBe('sent'));
    const read = {
      type: 'peer_read_messages' as const,
      seq: 0,
      readerId: BO.id,
      messageIds: [id],
      chatPartnerId: ME.id,
      groupId: null,
    };
    server.emit({ ...read, status: 'read' });
    server.emit({ ...read, status: 'delivered' }); // late delivery receipt
    server.emit({
      type: 'chat-reaction',
      seq: 0,
      messageId: id,
      emoji: '👍',
      fromUserId: BO.id,
      toUserId: ME.id,
    });
    server.emit({
      type: 'chat-reaction',
      seq: 0,
      messageId: id,
      emoji: '😂',
      fromUserId: BO.id,
      toUserId: ME.id,
    });
    await waitFor(async () => expect(await readCursor(client!.db)).toBe(5));
    const row = await client.db.messages.get(id);
    expect(row?.status).toBe('read');
    expect(row?.reactions).toEqual([{ emoji: '😂', userId: BO.id }]);
  });
});
