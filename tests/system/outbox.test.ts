import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, REALTIME_ERRORS, type MessageErrorFrame } from '../../packages/protocol/src';
import {
  writeDirectMessage,
  writeDiscard,
  writeMarkRead,
  writeReaction,
  writeRetry,
  type SyncClient,
} from '../../packages/sync/src';
import { startFlakyProxy } from './support/flaky-proxy';
import {
  FAST,
  addStudent,
  newDevice,
  newDeviceDatabase,
  startDevice,
  startSystemServer,
  waitFor,
  type Student,
  type TestServer,
} from './support/harness';
import { recordingWire, type Wire } from './support/wire';

/** A server that allows a burst of 5 mutations or typing frames per user, then one a second. */
const RATE = { ratePerSecond: 1, rateBurst: 5 };

let server: TestServer;
let limited: TestServer;
let clients: SyncClient[] = [];

beforeAll(async () => {
  server = await startSystemServer();
  limited = await startSystemServer(RATE);
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  clients = [];
});
afterAll(async () => {
  await server?.close();
  await limited?.close();
});

function device(on: TestServer, student: Student, wire: Wire, port?: number): SyncClient {
  const client = newDevice({ server: on, student, db: newDeviceDatabase(student), wire, timing: FAST, port });
  clients.push(client);
  return client;
}

/** Caught up (the first pull answered and applied): from now on writes go out at once. */
async function live(client: SyncClient, wire: Wire): Promise<void> {
  await waitFor(() => client.getState().status === 'online');
  await waitFor(() => expect(wire.received.map((f) => f.type)).toContain('sync_reset'));
  await waitFor(() => expect(wire.sentOf('pull').length).toBeGreaterThan(0));
}

/** Typing costs a token of the same bucket as mutations: a fast typer spends the whole burst. */
function spendRateBudget(client: SyncClient, peerId: string): void {
  for (let i = 0; i < RATE.rateBurst; i += 1) client.typing({ roomId: peerId });
}

function storedBetween(on: TestServer, a: string, b: string): number {
  const pair = a < b ? `${a}:${b}` : `${b}:${a}`;
  const row = on.deps.sqlite.prepare('SELECT COUNT(*) AS n FROM direct_messages WHERE pair = ?').get(pair);
  return (row as { n: number }).n;
}

describe('outbox against the real server', () => {
  it('queues writes made offline as sending and sends them in order once caught up', async () => {
    const me = await addStudent(server, 'Ana', 'Outbox');
    const bo = await addStudent(server, 'Bo', 'Outbox');
    const wire = recordingWire();
    const client = device(server, me, wire);
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) ids.push(await client.run(writeDirectMessage, bo.ref, text));
    const pending = await client.db.messages.bulkGet(ids);
    expect(pending.map((m) => m?.status)).toEqual(['sending', 'sending', 'sending']);
    expect(await client.db.outbox.count()).toBe(3);

    client.start();
    await waitFor(async () => expect(await client.db.outbox.count()).toBe(0));
    // The pull comes first, then the queue in order.
    expect(wire.sent.slice(0, 2).map((f) => f.type)).toEqual(['hello', 'pull']);
    expect(wire.sentOf('send_message').map((f) => f.content)).toEqual(['one', 'two', 'three']);
    await waitFor(async () => {
      const stored = await client.db.messages.bulkGet(ids);
      expect(stored.map((m) => m?.status)).toEqual(['sent', 'sent', 'sent']);
    });
  });

  it('names a conversation started before the partner was known once the server has stored the message', async () => {
    const me = await addStudent(server, 'Ana', 'Naming');
    const bo = await addStudent(server, 'Bo', 'Kim');
    const client = device(server, me, recordingWire());
    await client.run(writeDirectMessage, { ...bo.ref, firstName: '', lastName: '' }, 'hello?');
    expect((await client.db.conversations.get(bo.id))?.name).toBe('');
    client.start();
    // The server names the partner from its users table.
    await waitFor(async () => expect((await client.db.conversations.get(bo.id))?.name).toBe('Bo Kim'));
  });

  it('resends unacknowledged mutations after a reconnect with the same (deviceId, mid), in order, stored once', async () => {
    const me = await addStudent(server, 'Ana', 'Resend');
    const bo = await addStudent(server, 'Bo', 'Resend');
    const proxy = await startFlakyProxy({ targetPort: server.port, seed: 1, randomCuts: false });
    try {
      const wire = recordingWire();
      const client = device(server, me, wire, proxy.port);
      client.start();
      await live(client, wire);
      proxy.dropUpstream = true; // the server never sees them: no ack
      for (let i = 1; i <= 5; i += 1) await client.run(writeDirectMessage, bo.ref, `m${i}`);
      await waitFor(() => expect(wire.sentOf('send_message')).toHaveLength(5));
      const firstRound = wire.sentOf('send_message').map((f) => [f.deviceId, f.mid, f.content]);
      expect(storedBetween(server, me.id, bo.id)).toBe(0);

      proxy.cutAll();
      proxy.dropUpstream = false;
      await waitFor(async () => expect(await client.db.outbox.count()).toBe(0));
      const all = wire.sentOf('send_message').map((f) => [f.deviceId, f.mid, f.content]);
      expect(all.slice(5)).toEqual(firstRound);
      expect(storedBetween(server, me.id, bo.id)).toBe(5);
      expect(firstRound.map((f) => f[1])).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await proxy.close();
    }
  });

  it('rolls back a refused message: status failed with the reason, listeners told, queue emptied', async () => {
    const me = await addStudent(server, 'Ana', 'Refused');
    const bo = await addStudent(server, 'Bo', 'Refused');
    const client = device(server, me, recordingWire());
    const errors: MessageErrorFrame[] = [];
    client.onMessageError((e) => errors.push(e));
    client.start();
    const good = await client.run(writeDirectMessage, bo.ref, 'fine');
    const bad = await client.run(writeDirectMessage, bo.ref, 'x'.repeat(CHAT.maxMessageLength + 1));
    await waitFor(async () => expect((await client.db.messages.get(bad))?.status).toBe('failed'));
    expect((await client.db.messages.get(bad))?.error).toBe(REALTIME_ERRORS.messageTooLong);
    await waitFor(async () => expect((await client.db.messages.get(good))?.status).toBe('sent'));
    expect(errors).toMatchObject([{ error: 'Message is too long.', context: 'send_message' }]);
    expect(await client.db.outbox.count()).toBe(0);
  });

  it('retries a failed message under a new mid and the same message id; discard removes a failed one', async () => {
    const me = await addStudent(limited, 'Ana', 'Retry');
    const bo = await addStudent(limited, 'Bo', 'Retry');
    const wire = recordingWire();
    const client = device(limited, me, wire);
    client.start();
    await live(client, wire);
    spendRateBudget(client, bo.id);
    const id = await client.run(writeDirectMessage, bo.ref, 'hello');
    await waitFor(async () => expect((await client.db.messages.get(id))?.status).toBe('failed'));
    expect((await client.db.messages.get(id))?.error).toBe(REALTIME_ERRORS.rateLimited);

    // A second later the bucket holds a token again.
    await new Promise((r) => setTimeout(r, 1100));
    await client.run(writeRetry, id);
    expect((await client.db.messages.get(id))?.status).not.toBe('failed');
    await waitFor(async () => expect((await client.db.messages.get(id))?.status).toBe('sent'));
    const sends = wire.sentOf('send_message');
    expect(sends).toHaveLength(2);
    expect(sends[1]!.id).toBe(sends[0]!.id);
    expect(sends[1]!.mid).toBeGreaterThan(sends[0]!.mid);
    expect((await client.db.messages.get(id))?.error).toBeUndefined();

    spendRateBudget(client, bo.id);
    const other = await client.run(writeDirectMessage, bo.ref, 'again');
    await waitFor(async () => expect((await client.db.messages.get(other))?.status).toBe('failed'));
    await client.run(writeDiscard, other);
    expect(await client.db.messages.get(other)).toBeUndefined();
    await client.run(writeDiscard, id); // a sent message is not discarded
    expect(await client.db.messages.get(id)).toBeDefined();
  });

  it('undoes an optimistic reaction and read marks the server refused', async () => {
    const me = await addStudent(limited, 'Ana', 'Undo');
    const bo = await addStudent(limited, 'Bo', 'Undo');
    const wire = recordingWire();
    const client = device(limited, me, wire);
    client.start();
    await live(client, wire);
    const boClient = startDevice({ server: limited, student: bo, db: newDeviceDatabase(bo), timing: FAST });
    clients.push(boClient);
    const messageId = await boClient.run(writeDirectMessage, me.ref, 'hi');
    await boClient.run(writeReaction, messageId, '👍', me.id);
    await waitFor(async () =>
      expect((await client.db.messages.get(messageId))?.reactions).toEqual([{ emoji: '👍', userId: bo.id }]),
    );
    expect((await client.db.conversations.get(bo.id))?.unreadCount).toBe(1);
    // The server marks it delivered to this device: that is the status a refused read mark goes back to.
    await waitFor(async () => expect((await client.db.messages.get(messageId))?.status).toBe('delivered'));

    spendRateBudget(client, bo.id);
    await client.run(writeReaction, messageId, '🔥', bo.id);
    expect((await client.db.messages.get(messageId))?.reactions).toContainEqual({
      emoji: '🔥',
      userId: me.id,
    });
    await client.run(writeMarkRead, bo.id, [messageId]);
    expect((await client.db.messages.get(messageId))?.status).toBe('read');
    expect((await client.db.conversations.get(bo.id))?.unreadCount).toBe(0);

    await waitFor(async () => expect(await client.db.outbox.count()).toBe(0));
    expect(wire.receivedOf('message_error').map((f) => f.frame.context)).toEqual(
      expect.arrayContaining(['chat-reaction', 'mark_messages_as_read']),
    );
    const row = await client.db.messages.get(messageId);
    expect(row?.reactions).toEqual([{ emoji: '👍', userId: bo.id }]);
    expect(row?.status).toBe('delivered');
    expect((await client.db.conversations.get(bo.id))?.unreadCount).toBe(1);
  });
});
