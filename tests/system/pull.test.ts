import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeDirectMessage, type CampusDatabase, type SyncClient } from '../../packages/sync/src';
import { readCursor } from '../../packages/sync/src/meta';
import { startFlakyProxy, type FlakyProxy } from './support/flaky-proxy';
import {
  FAST,
  addStudent,
  chatBySeq,
  headSeq,
  newDevice,
  newDeviceDatabase,
  startDevice,
  startSystemServer,
  syncOnce,
  waitFor,
  type Student,
  type TestServer,
} from './support/harness';
import { recordingWire } from './support/wire';

let server: TestServer;
let proxy: FlakyProxy;
let clients: SyncClient[] = [];

beforeAll(async () => {
  server = await startSystemServer({ pullPageSize: 2 });
  proxy = await startFlakyProxy({ targetPort: server.port, seed: 1, randomCuts: false });
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  clients = [];
  proxy.dropUpstream = false;
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

function track(client: SyncClient): SyncClient {
  clients.push(client);
  return client;
}

/** `from` writes to `to` from a device of their own; resolves with the ids once the server has them all. */
async function sendFrom(from: SyncClient, to: Student, texts: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const text of texts) ids.push(await from.run(writeDirectMessage, to.ref, text));
  await waitFor(async () => expect(await from.db.outbox.count()).toBe(0));
  return ids;
}

/** Everything the server logged has reached the device (delivery receipts included) and it stays so. */
async function settled(db: CampusDatabase): Promise<number> {
  await waitFor(async () => expect(await readCursor(db)).toBe(headSeq(server)));
  await new Promise((r) => setTimeout(r, 100));
  await waitFor(async () => expect(await readCursor(db)).toBe(headSeq(server)));
  return readCursor(db);
}

describe('pull and cursor against the real server', () => {
  it('pulls once from its stored cursor, applies the pages, advances it, and ignores changes at or below it', async () => {
    const me = await addStudent(server, 'Ana', 'Pull');
    const bo = await addStudent(server, 'Bo', 'Pull');
    const db = newDeviceDatabase(me);
    const cursorBefore = await syncOnce(server, me, db);
    const boClient = track(startDevice({ server, student: bo, db: newDeviceDatabase(bo), timing: FAST }));
    await sendFrom(boClient, me, ['m0', 'm1', 'm2', 'm3', 'm4']);

    const wire = recordingWire();
    const client = track(newDevice({ server, student: me, db, wire, timing: FAST, port: proxy.port }));
    client.start();
    await waitFor(async () => expect(await client.db.messages.count()).toBe(5));
    await settled(db);
    expect(wire.sentOf('pull').map((f) => f.cursor)).toEqual([cursorBefore]);
    // Pages of two: m0 m1, m2 m3, m4.
    expect(wire.receivedOf('changes').length).toBeGreaterThanOrEqual(3);
    expect((await client.db.conversations.get(bo.id))?.unreadCount).toBe(5);

    // The network delivers a change again (a retransmission) and an old page: nothing is applied twice.
    const pages = wire.receivedOf('changes');
    const again = pages.at(-1)!.frame.changes.find((c) => c.type === 'receive_message')!;
    wire.redeliver(JSON.stringify(again));
    wire.redeliver(pages[0]!.data);
    expect(wire.receivedOf('receive_message').length).toBe(1);
    expect(wire.receivedOf('changes').length).toBe(pages.length + 1);
    await sendFrom(boClient, me, ['fresh']);
    await waitFor(async () => expect(await client.db.messages.count()).toBe(6));
    const cursor = await settled(db);
    expect((await client.db.conversations.get(bo.id))?.unreadCount).toBe(6);
    expect((await chatBySeq(db, bo.id)).map((m) => m.content)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm4',
      'fresh',
    ]);

    // After a reconnect the pull starts from the stored cursor.
    proxy.cutAll();
    await waitFor(() => expect(wire.sentOf('pull')).toHaveLength(2));
    expect(wire.sentOf('pull').at(-1)?.cursor).toBe(cursor);
  });

  it('sends its pull right behind the hello, before the welcome, on every session', async () => {
    const me = await addStudent(server, 'Ana', 'Opening');
    const bo = await addStudent(server, 'Bo', 'Opening');
    const db = newDeviceDatabase(me);
    // Opened as the app's is by the time it connects (its screens render from it first): a database
    // created on the first read could take longer than the server's welcome.
    await db.open();
    const wire = recordingWire();
    // How many welcomes had arrived when each pull went out.
    const welcomesAtPull: number[] = [];
    wire.onSend = (frame) => {
      if (frame.type === 'pull') welcomesAtPull.push(wire.receivedOf('welcome').length);
    };
    const client = track(newDevice({ server, student: me, db, wire, timing: FAST, port: proxy.port }));
    client.start();
    await waitFor(() => expect(wire.receivedOf('sync_reset')).toHaveLength(1));
    const cursor = await settled(db);
    expect(cursor).toBe(wire.receivedOf('sync_reset')[0]!.frame.cursor);

    // Cut, then a message while the device is away: the next session's pull, again ahead of its welcome,
    // starts from the stored cursor, and its answer brings the message.
    proxy.cutAll();
    const boClient = track(startDevice({ server, student: bo, db: newDeviceDatabase(bo), timing: FAST }));
    await sendFrom(boClient, me, ['while away']);
    await waitFor(async () => expect(await client.db.messages.count()).toBe(1));
    expect(wire.sent.map((f) => f.type).filter((t) => t === 'hello' || t === 'pull')).toEqual([
      'hello',
      'pull',
      'hello',
      'pull',
    ]);
    expect(welcomesAtPull).toEqual([0, 1]);
    expect(wire.sentOf('pull').map((f) => f.cursor)).toEqual([0, cursor]);
  });

  it('a message sent while the device pulls is not skipped', async () => {
    const me = await addStudent(server, 'Ana', 'Hold');
    const bo = await addStudent(server, 'Bo', 'Hold');
    const db = newDeviceDatabase(me);
    await syncOnce(server, me, db);
    const boClient = track(startDevice({ server, student: bo, db: newDeviceDatabase(bo), timing: FAST }));
    await sendFrom(boClient, me, ['old0', 'old1', 'old2']);

    const wire = recordingWire();
    // While the pages are being pulled, a new message is sent (it comes in the pages or live after them).
    let live: Promise<string[]> | undefined;
    wire.onSend = (frame) => {
      if (frame.type === 'pull') live ??= sendFrom(boClient, me, ['live']);
    };
    const client = track(newDevice({ server, student: me, db, wire, timing: FAST }));
    client.start();
    await waitFor(() => expect(live).toBeDefined());
    const [liveId] = await live!;
    await waitFor(async () => expect(await client.db.messages.count()).toBe(4));
    await settled(db);
    const chat = await chatBySeq(db, bo.id);
    expect(chat.map((m) => m.content)).toEqual(['old0', 'old1', 'old2', 'live']);
    expect(chat.at(-1)?.id).toBe(liveId);
  });

  it('sync_reset replaces the synced tables but keeps the outbox and pending messages', async () => {
    const me = await addStudent(server, 'Ana', 'Reset');
    const bo = await addStudent(server, 'Bo', 'Kim');
    const boClient = track(startDevice({ server, student: bo, db: newDeviceDatabase(bo), timing: FAST }));
    const [snapshotId] = await sendFrom(boClient, me, ['from the snapshot']);

    const db = newDeviceDatabase(me);
    await db.conversations.put({
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
    await db.messages.put({
      id: 'stale-message',
      from: { id: 'gone-user', firstName: 'Cy', lastName: 'Ray', profilePictureUrl: null },
      to: me.ref,
      content: 'stale message',
      timestamp: '2020-01-01T00:00:00.000Z',
      status: 'sent',
      attachmentUrl: null,
      attachmentType: null,
      replyTo: null,
      reactions: [],
      peerId: 'gone-user',
    });
    const wire = recordingWire();
    const client = track(newDevice({ server, student: me, db, wire, timing: FAST, port: proxy.port }));
    const pendingId = await client.run(writeDirectMessage, bo.ref, 'queued while offline');
    // From the snapshot on, what the device sends is lost: its message stays queued.
    wire.onReceive = (frame) => {
      if (frame.type === 'sync_reset') proxy.dropUpstream = true;
    };
    client.start();
    await waitFor(() => expect(wire.receivedOf('sync_reset')).toHaveLength(1));
    const resetCursor = wire.receivedOf('sync_reset')[0]!.frame.cursor;
    expect(resetCursor).toBeGreaterThan(0);
    // The reset's cursor, or a later one: the snapshot's delivery receipt may come live right behind it.
    await waitFor(async () => expect(await readCursor(db)).toBeGreaterThanOrEqual(resetCursor));
    expect(await client.db.conversations.get('stale')).toBeUndefined();
    expect((await client.db.conversations.get(bo.id))?.lastMessageSnippet).toBe('queued while offline');
    const ids = (await client.db.messages.toArray()).map((m) => m.id).sort();
    expect(ids).toEqual([pendingId, snapshotId].sort());
    expect(await client.db.outbox.count()).toBe(1);
    await waitFor(() => expect(wire.sentOf('send_message').map((f) => f.id)).toEqual([pendingId]));
  });
});
