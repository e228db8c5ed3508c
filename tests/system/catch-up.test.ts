import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncClient } from '../../packages/sync/src';
import { readCursor } from '../../packages/sync/src/meta';
import {
  addStudent,
  chatBySeq,
  newDeviceDatabase,
  startDevice,
  startSystemServer,
  until,
  type TestServer,
  type WireCounts,
} from './support/harness';

let server: TestServer;
const clients: SyncClient[] = [];

beforeAll(async () => {
  server = await startSystemServer();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await server?.close();
});

describe('catch-up after being away', () => {
  it('a stopped client gets the 200 messages sent meanwhile, each once, in order, with one pull', async () => {
    const a = await addStudent(server, 'Ana', 'Away');
    const b = await addStudent(server, 'Ben', 'Away');
    const dbA = newDeviceDatabase(a);
    const dbB = newDeviceDatabase(b);
    const clientA = startDevice({ server, student: a, db: dbA });
    let clientB = startDevice({ server, student: b, db: dbB });
    clients.push(clientA);

    // B knows A: one message before going away.
    await clientA.sendDirectMessage(b.ref, 'before');
    await until(
      async () => (await chatBySeq(dbB, a.id)).length === 1,
      10_000,
      'B to receive the first message',
    );
    await clientB.stop();
    const cursorBefore = await readCursor(dbB);

    const sent: string[] = [];
    for (let i = 0; i < 200; i += 1) sent.push(await clientA.sendDirectMessage(b.ref, `away-${i}`));
    await until(async () => (await dbA.outbox.count()) === 0, 20_000, "A's outbox to drain");
    expect(await chatBySeq(dbB, a.id)).toHaveLength(1);

    // Watch every change B applies while it catches up.
    const applied: string[] = [];
    const watch = (_key: unknown, row: { id: string }) => void applied.push(row.id);
    dbB.messages.hook('creating', watch);

    const counts: WireCounts = { connections: 0, sent: {} };
    clientB = startDevice({ server, student: b, db: dbB, counts });
    clients.push(clientB);
    await until(async () => (await chatBySeq(dbB, a.id)).length === 201, 20_000, 'B to catch up');
    await new Promise((r) => setTimeout(r, 300)); // anything duplicated would arrive now
    dbB.messages.hook('creating').unsubscribe(watch);

    const chat = await chatBySeq(dbB, a.id);
    expect(chat.map((m) => m.content)).toEqual(['before', ...sent.map((_, i) => `away-${i}`)]);
    expect(chat.slice(1).map((m) => m.id)).toEqual(sent);
    // Each of the 200 was created in B's database exactly once, in order.
    expect(applied).toEqual(sent);
    expect(counts.connections).toBe(1);
    expect(counts.sent.pull).toBe(1);
    expect(await readCursor(dbB)).toBeGreaterThan(cursorBefore);
    expect((await dbB.conversations.get(a.id))?.unreadCount).toBe(201);
  });
});
