import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeDirectMessage, type SyncClient } from '../../packages/sync/src';
import { readCursor } from '../../packages/sync/src/meta';
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
  type TestServer,
} from './support/harness';
import { recordingWire } from './support/wire';

let server: TestServer;
let clients: SyncClient[] = [];

beforeAll(async () => {
  server = await startSystemServer({ pullPageSize: 1 });
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  clients = [];
  vi.restoreAllMocks();
});
afterAll(async () => {
  await server?.close();
});

describe('a page that fails to apply', () => {
  it('drops the session so the next pull fetches the lost changes again; later pages do not skip them', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const me = await addStudent(server, 'Ana', 'Apply');
    const bo = await addStudent(server, 'Bo', 'Apply');
    const db = newDeviceDatabase(me);
    const cursorBefore = await syncOnce(server, me, db);
    const boClient = startDevice({ server, student: bo, db: newDeviceDatabase(bo), timing: FAST });
    clients.push(boClient);
    for (const text of ['m0', 'm1', 'm2']) await boClient.run(writeDirectMessage, me.ref, text);
    await waitFor(async () => expect(await boClient.db.outbox.count()).toBe(0));

    const wire = recordingWire();
    const client = newDevice({ server, student: me, db, wire, timing: FAST });
    clients.push(client);
    // Storing m1 fails once, as a full disk or an aborted transaction would.
    let failures = 0;
    client.db.messages.hook('creating', (_key, row) => {
      if (row.content === 'm1' && failures === 0) {
        failures += 1;
        throw new Error('QuotaExceededError');
      }
    });
    client.start();
    await waitFor(async () => expect(await client.db.messages.count()).toBe(3));
    expect(failures).toBe(1);
    const chat = await chatBySeq(db, bo.id);
    expect(chat.map((m) => m.content)).toEqual(['m0', 'm1', 'm2']);
    // One page per change: the first pull applied m0 and failed on m1; the next pulled again after m0.
    expect(wire.sentOf('pull').map((f) => f.cursor)).toEqual([cursorBefore, chat[0]!.seq]);
    await waitFor(async () => expect(await readCursor(db)).toBe(headSeq(server)));
    expect((await client.db.conversations.get(bo.id))?.unreadCount).toBe(3);
  });
});
