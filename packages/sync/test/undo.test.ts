import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { REALTIME_ERRORS, type ClientFrame } from '@campus/protocol';
import type { SyncClient } from '../src';
import { FakeServer, waitFor } from './support/fake-server';
import { BO, ME, incoming, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

/** A client online with one message from Bo; the server records mutations but answers none by itself. */
async function setup() {
  const server = new FakeServer(ME);
  client = makeClient(server);
  client.start();
  await waitFor(() => client!.getState().status === 'online');
  const change = server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, 'hi') });
  const messageId = change.type === 'receive_message' ? change.message.id : '';
  await waitFor(async () => expect(await client!.db.messages.get(messageId)).toBeDefined());
  server.answering = false;
  return { server, c: client, messageId };
}

function refuse(server: FakeServer, frame: Extract<ClientFrame, { deviceId: string }>) {
  for (const socket of server.live)
    socket.deliver({
      type: 'message_error',
      error: REALTIME_ERRORS.unknownMessage,
      context: frame.type,
      deviceId: frame.deviceId,
      mid: frame.mid,
    });
}

describe('undo of refused writes', () => {
  it('a refused reaction takes back only my own: the partner’s reaction made meanwhile stays', async () => {
    const { server, c, messageId } = await setup();
    await c.react(messageId, '🔥', BO.id);
    await waitFor(() => expect(server.framesOfType('chat-reaction')).toHaveLength(1));
    server.emit({
      type: 'chat-reaction',
      seq: 0,
      messageId,
      emoji: '👍',
      fromUserId: BO.id,
      toUserId: ME.id,
    });
    await waitFor(async () => expect((await c.db.messages.get(messageId))?.reactions).toHaveLength(2));

    refuse(server, server.framesOfType('chat-reaction')[0]!);
    await waitFor(async () => expect(await c.db.outbox.count()).toBe(0));
    expect((await c.db.messages.get(messageId))?.reactions).toEqual([{ emoji: '👍', userId: BO.id }]);
  });

  it('a refused reaction leaves my newer queued reaction in place, and restores my previous one otherwise', async () => {
    const { server, c, messageId } = await setup();
    await c.react(messageId, '🔥', BO.id);
    await c.react(messageId, '😂', BO.id);
    await waitFor(() => expect(server.framesOfType('chat-reaction')).toHaveLength(2));
    const [first, second] = server.framesOfType('chat-reaction');

    refuse(server, first!);
    await waitFor(async () => expect(await c.db.outbox.count()).toBe(1));
    expect((await c.db.messages.get(messageId))?.reactions).toEqual([{ emoji: '😂', userId: ME.id }]);

    // The last one refused too: my reaction before it (🔥, as far as this device knows) comes back.
    refuse(server, second!);
    await waitFor(async () => expect(await c.db.outbox.count()).toBe(0));
    expect((await c.db.messages.get(messageId))?.reactions).toEqual([{ emoji: '🔥', userId: ME.id }]);
  });

  it('a refused read mark adds its messages back to the unread count as it is now', async () => {
    const { server, c, messageId } = await setup();
    const second = server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, 'two') });
    const secondId = second.type === 'receive_message' ? second.message.id : '';
    await waitFor(async () => expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(2));
    await c.markRead(BO.id, [messageId, secondId]);
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(0);
    await waitFor(() => expect(server.framesOfType('mark_messages_as_read')).toHaveLength(1));

    server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, 'three') });
    await waitFor(async () => expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(1));
    refuse(server, server.framesOfType('mark_messages_as_read')[0]!);
    await waitFor(async () => expect(await c.db.outbox.count()).toBe(0));
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(3);
    expect((await c.db.messages.get(messageId))?.status).toBe('sent');
  });
});
