import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { REALTIME_ERRORS, type MessageErrorFrame } from '@campus/protocol';
import type { SyncClient } from '../src';
import { FakeServer, waitFor } from './support/fake-server';
import { BO, ME, incoming, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

describe('outbox', () => {
  it('queues writes made offline as sending and sends them in order once caught up', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) ids.push(await client.sendDirectMessage(BO, text));
    const pending = await client.db.messages.bulkGet(ids);
    expect(pending.map((m) => m?.status)).toEqual(['sending', 'sending', 'sending']);
    expect(await client.db.outbox.count()).toBe(3);

    client.start();
    await waitFor(async () => expect(await client!.db.outbox.count()).toBe(0));
    const types = server.received.map((f) => f.type);
    // The pull comes first, then the queue in order.
    expect(types.slice(0, 2)).toEqual(['hello', 'pull']);
    expect(server.framesOfType('send_message').map((f) => f.content)).toEqual(['one', 'two', 'three']);
    await waitFor(async () => {
      const stored = await client!.db.messages.bulkGet(ids);
      expect(stored.map((m) => m?.status)).toEqual(['sent', 'sent', 'sent']);
    });
  });

  // The fake server names every partner 'Peer <id>', as the real one names them from its users table.
  it('names a conversation started before the partner was known once the server has stored the message', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    await client.sendDirectMessage({ ...BO, firstName: '', lastName: '' }, 'hello?');
    expect((await client.db.conversations.get(BO.id))?.name).toBe('');
    client.start();
    await waitFor(async () =>
      expect((await client!.db.conversations.get(BO.id))?.name).toBe(`Peer ${BO.id}`),
    );
  });

  it('resends unacknowledged mutations after a reconnect with the same (deviceId, mid), in order, stored once', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    server.answering = false; // the server never sees them: no ack
    for (let i = 1; i <= 5; i += 1) await client.sendDirectMessage(BO, `m${i}`);
    await waitFor(() => expect(server.framesOfType('send_message')).toHaveLength(5));
    const firstRound = server.framesOfType('send_message').map((f) => [f.deviceId, f.mid, f.content]);

    server.answering = true;
    server.cutAll();
    await waitFor(async () => expect(await client!.db.outbox.count()).toBe(0));
    const all = server.framesOfType('send_message').map((f) => [f.deviceId, f.mid, f.content]);
    expect(all.slice(5)).toEqual(firstRound);
    expect(server.stored.size).toBe(5);
    expect(firstRound.map((f) => f[1])).toEqual([1, 2, 3, 4, 5]);
  });

  it('rolls back a refused message: status failed with the reason, listeners told, queue emptied', async () => {
    const server = new FakeServer(ME);
    server.refuse = (f) =>
      f.type === 'send_message' && f.content === 'bad' ? REALTIME_ERRORS.messageTooLong : undefined;
    client = makeClient(server);
    const errors: MessageErrorFrame[] = [];
    client.onMessageError((e) => errors.push(e));
    client.start();
    const good = await client.sendDirectMessage(BO, 'fine');
    const bad = await client.sendDirectMessage(BO, 'bad');
    await waitFor(async () => expect((await client!.db.messages.get(bad))?.status).toBe('failed'));
    expect((await client.db.messages.get(bad))?.error).toBe('Message is too long.');
    await waitFor(async () => expect((await client!.db.messages.get(good))?.status).toBe('sent'));
    expect(errors).toMatchObject([{ error: 'Message is too long.', context: 'send_message' }]);
    expect(await client.db.outbox.count()).toBe(0);
  });

  it('retries a failed message under a new mid and the same message id; discard removes a failed one', async () => {
    const server = new FakeServer(ME);
    let refuseOnce = true;
    server.refuse = () => {
      if (!refuseOnce) return undefined;
      refuseOnce = false;
      return REALTIME_ERRORS.rateLimited;
    };
    client = makeClient(server);
    client.start();
    const id = await client.sendDirectMessage(BO, 'hello');
    await waitFor(async () => expect((await client!.db.messages.get(id))?.status).toBe('failed'));

    await client.retry(id);
    expect((await client.db.messages.get(id))?.status).not.toBe('failed');
    await waitFor(async () => expect((await client!.db.messages.get(id))?.status).toBe('sent'));
    const sends = server.framesOfType('send_message');
    expect(sends).toHaveLength(2);
    expect(sends[1]!.id).toBe(sends[0]!.id);
    expect(sends[1]!.mid).toBeGreaterThan(sends[0]!.mid);
    expect((await client.db.messages.get(id))?.error).toBeUndefined();

    server.refuse = () => REALTIME_ERRORS.rateLimited;
    const other = await client.sendDirectMessage(BO, 'again');
    await waitFor(async () => expect((await client!.db.messages.get(other))?.status).toBe('failed'));
    await client.discard(other);
    expect(await client.db.messages.get(other)).toBeUndefined();
    await client.discard(id); // a sent message is not discarded
    expect(await client.db.messages.get(id)).toBeDefined();
  });

  it('undoes an optimistic reaction and read marks the server refused', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    const m = server.emit({
      type: 'receive_message',
      seq: 0,
      message: incoming(BO, 'hi', { reactions: [{ emoji: '👍', userId: BO.id }] }),
    });
    const messageId = m.type === 'receive_message' ? m.message.id : '';
    await waitFor(async () => expect((await client!.db.conversations.get(BO.id))?.unreadCount).toBe(1));

    server.refuse = () => REALTIME_ERRORS.unknownMessage;
    await client.react(messageId, '🔥', BO.id);
    expect((await client.db.messages.get(messageId))?.reactions).toContainEqual({
      emoji: '🔥',
      userId: ME.id,
    });
    await client.markRead(BO.id, [messageId]);
    expect((await client.db.messages.get(messageId))?.status).toBe('read');
    expect((await client.db.conversations.get(BO.id))?.unreadCount).toBe(0);

    await waitFor(async () => expect(await client!.db.outbox.count()).toBe(0));
    const row = await client.db.messages.get(messageId);
    expect(row?.reactions).toEqual([{ emoji: '👍', userId: BO.id }]);
    expect(row?.status).toBe('sent');
    expect((await client.db.conversations.get(BO.id))?.unreadCount).toBe(1);
  });
});
