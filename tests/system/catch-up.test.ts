import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDirectMessage, writeReaction, type SyncClient } from '../../packages/sync/src';
import { readCursor } from '../../packages/sync/src/meta';
import { startFlakyProxy } from './support/flaky-proxy';
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

    // B knows A: one message before going away. B writes it, so A has an answer and the cap on messages to
    // someone who never replied (10) does not apply to the 200 below.
    await clientB.run(writeDirectMessage, a.ref, 'before');
    await until(
      async () => (await chatBySeq(dbB, a.id)).length === 1 && (await chatBySeq(dbA, b.id)).length === 1,
      10_000,
      'the first message to reach both',
    );
    await clientB.stop();
    const cursorBefore = await readCursor(dbB);

    const sent: string[] = [];
    for (let i = 0; i < 200; i += 1) sent.push(await clientA.run(writeDirectMessage, b.ref, `away-${i}`));
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
    expect((await dbB.conversations.get(a.id))?.unreadCount).toBe(200);
  });

  it('unacknowledged mutations are resent after a reconnect with the same (deviceId, mid) and applied once', async () => {
    const a = await addStudent(server, 'Ana', 'Unacked');
    const b = await addStudent(server, 'Ben', 'Unacked');
    const proxy = await startFlakyProxy({ targetPort: server.port, seed: 1, randomCuts: false });
    try {
      const dbA = newDeviceDatabase(a);
      const dbB = newDeviceDatabase(b);
      const counts: WireCounts = { connections: 0, sent: {}, mutations: [] };
      const clientA = startDevice({ server, student: a, db: dbA, port: proxy.port, counts });
      const clientB = startDevice({ server, student: b, db: dbB });
      clients.push(clientA, clientB);
      const fromB = await clientB.run(writeDirectMessage, a.ref, 'react to me');
      await until(async () => (await dbA.messages.get(fromB))?.seq !== undefined, 10_000, 'A to receive it');
      const pair = a.id < b.id ? `${a.id}:${b.id}` : `${b.id}:${a.id}`;
      const count = (sql: string, arg: string) =>
        (server.deps.sqlite.prepare(sql).get(arg) as { n: number }).n;
      const stored = () => count('SELECT COUNT(*) AS n FROM direct_messages WHERE pair = ?', pair);
      const reactionChanges = () =>
        count(
          "SELECT COUNT(*) AS n FROM change_log WHERE type = 'chat-reaction' AND payload LIKE ?",
          `%${fromB}%`,
        );
      const resent = (from: number) => {
        const sends = counts.mutations!.slice(from);
        const half = sends.length / 2;
        return { first: sends.slice(0, half), again: sends.slice(half) };
      };

      // 1. Sent into a dead link: the server never got them. After the reconnect they go again, same pairs.
      proxy.dropUpstream = true;
      let mark = counts.mutations!.length;
      const ids: string[] = [];
      for (let i = 0; i < 10; i += 1) ids.push(await clientA.run(writeDirectMessage, b.ref, `lost-${i}`));
      await until(() => counts.mutations!.length === mark + 10, 5_000, 'the 10 to be sent');
      proxy.cutAll();
      proxy.dropUpstream = false;
      await until(
        async () => (await dbA.outbox.count()) === 0,
        20_000,
        'the resent messages to be acknowledged',
      );
      let { first, again } = resent(mark);
      expect(first.map((m) => m.id)).toEqual(ids);
      expect(again).toEqual(first);
      expect(stored()).toBe(11);

      // 2. Applied by the server but the acks were lost: resent with the same pairs, applied once.
      proxy.dropDownstream = true;
      mark = counts.mutations!.length;
      for (const emoji of ['👍', '😂', '😍', '😮', '🔥'])
        await clientA.run(writeReaction, fromB, emoji, b.id);
      await until(() => reactionChanges() === 5, 10_000, 'the server to apply the 5 reactions');
      expect(await dbA.outbox.count()).toBe(5);
      proxy.cutAll();
      proxy.dropDownstream = false;
      await until(
        async () => (await dbA.outbox.count()) === 0,
        20_000,
        'the resent reactions to be acknowledged',
      );
      ({ first, again } = resent(mark));
      expect(first).toHaveLength(5);
      expect(again).toEqual(first);
      expect(reactionChanges()).toBe(5);
      expect(counts.connections).toBe(3);

      // Both devices agree: 11 messages each once, the last reaction only.
      await until(async () => (await chatBySeq(dbB, a.id)).length === 11, 10_000, 'B to hold the 11');
      expect((await chatBySeq(dbA, b.id)).map((m) => m.id)).toEqual([fromB, ...ids]);
      await until(
        async () =>
          JSON.stringify((await dbB.messages.get(fromB))?.reactions) ===
          JSON.stringify([{ emoji: '🔥', userId: a.id }]),
        10_000,
        "B to see A's last reaction",
      );
      expect((await dbA.messages.get(fromB))?.reactions).toEqual([{ emoji: '🔥', userId: a.id }]);
    } finally {
      await proxy.close();
    }
  });
});
