import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDirectMessage, type SyncClient } from '../../packages/sync/src';
import { startFlakyProxy, type FlakyProxy } from './support/flaky-proxy';
import {
  addStudent,
  chatBySeq,
  describeDevice,
  holdsAll,
  newDeviceDatabase,
  openExchange,
  startDevice,
  startSystemServer,
  until,
  type Student,
  type TestServer,
  type WireCounts,
} from './support/harness';

const PER_SIDE = 1000;
const BURST = 25;

let server: TestServer;
let proxy: FlakyProxy;
const clients: SyncClient[] = [];

beforeAll(async () => {
  server = await startSystemServer();
  const seed = Number(process.env.FAULT_SEED ?? Date.now() % 2 ** 31);
  console.log(`[fault-injection] proxy seed ${seed} (FAULT_SEED=${seed} replays the cut schedule)`);
  proxy = await startFlakyProxy({ targetPort: server.port, seed });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await proxy?.close();
  await server?.close();
});

async function sendAll(client: SyncClient, to: Student, label: string, from = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < PER_SIDE; i += BURST) {
    const burst = [];
    for (let j = i; j < Math.min(PER_SIDE, i + BURST); j += 1)
      burst.push(client.run(writeDirectMessage, to.ref, `${label}-${j}`));
    ids.push(...(await Promise.all(burst)));
    // Spread the bursts over several connections' lifetimes.
    await new Promise((r) => setTimeout(r, 100));
  }
  return ids;
}

describe('fault injection: a proxy cutting every connection at random', () => {
  it('two clients exchange 2,000 messages and end with the same 2,000, none lost or duplicated, in seq order', async () => {
    const started = Date.now();
    const a = await addStudent(server, 'Ana', 'Flaky');
    const b = await addStudent(server, 'Ben', 'Flaky');
    const dbA = newDeviceDatabase(a);
    const dbB = newDeviceDatabase(b);
    const countsA: WireCounts = { connections: 0, sent: {} };
    const countsB: WireCounts = { connections: 0, sent: {} };
    const clientA = startDevice({ server, student: a, db: dbA, port: proxy.port, counts: countsA });
    const clientB = startDevice({ server, student: b, db: dbB, port: proxy.port, counts: countsB });
    clients.push(clientA, clientB);

    // Both devices past their first sync (a snapshot) through a third student's messages, then Ben's first
    // message and Ana's answer accepted: from then on everything reaches them as changes since their cursor.
    const c = await addStudent(server, 'Cem', 'Steady');
    const clientC = startDevice({ server, student: c, db: newDeviceDatabase(c) });
    clients.push(clientC);
    const { firstA, firstB } = await openExchange(
      { student: a, client: clientA, db: dbA },
      { student: b, client: clientB, db: dbB },
      clientC,
      30_000,
    );
    const [restA, restB] = await Promise.all([sendAll(clientA, b, 'A', 1), sendAll(clientB, a, 'B', 1)]);
    const idsA = [firstA, ...restA];
    const idsB = [firstB, ...restB];
    try {
      await until(
        async () => (await holdsAll(dbA, b.id, 2 * PER_SIDE)) && (await holdsAll(dbB, a.id, 2 * PER_SIDE)),
        100_000,
        'both devices to hold all 2,000',
      );
    } catch (error) {
      console.log(
        '[fault-injection] stuck:',
        await describeDevice(dbA, b.id),
        await describeDevice(dbB, a.id),
        {
          countsA,
          countsB,
          proxy: proxy.stats,
          statusA: clientA.getState().status,
          statusB: clientB.getState().status,
        },
      );
      throw error;
    }

    const onA = await chatBySeq(dbA, b.id);
    const onB = await chatBySeq(dbB, a.id);
    const sent = new Set([...idsA, ...idsB]);
    expect(sent.size).toBe(2 * PER_SIDE);
    // Same messages on both sides, every one sent, each once, in the same server order.
    expect(onA.map((m) => m.id)).toEqual(onB.map((m) => m.id));
    expect(new Set(onA.map((m) => m.id))).toEqual(sent);
    const seqs = onA.map((m) => m.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect([...seqs].sort((x, y) => x! - y!)).toEqual(seqs);
    // Nothing left pending or failed, and each side's own messages in the order it wrote them.
    expect(onA.filter((m) => m.status === 'sending' || m.status === 'failed')).toHaveLength(0);
    const aOrder = onA.filter((m) => m.from.id === a.id).map((m) => m.content);
    expect(aOrder).toEqual(Array.from({ length: PER_SIDE }, (_, i) => `A-${i}`));
    const bOrder = onB.filter((m) => m.from.id === b.id).map((m) => m.content);
    expect(bOrder).toEqual(Array.from({ length: PER_SIDE }, (_, i) => `B-${i}`));

    // The server stored each exactly once.
    const pair = a.id < b.id ? `${a.id}:${b.id}` : `${b.id}:${a.id}`;
    const row = server.deps.sqlite
      .prepare(
        'SELECT COUNT(*) AS n, COUNT(DISTINCT content) AS contents FROM direct_messages WHERE pair = ?',
      )
      .get(pair) as { n: number; contents: number };
    expect(row).toEqual({ n: 2 * PER_SIDE, contents: 2 * PER_SIDE });

    const elapsed = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `[fault-injection] seed ${proxy.seed}: sent A ${idsA.length}, B ${idsB.length}; ` +
        `received A ${onA.filter((m) => m.from.id === b.id).length}, B ${onB.filter((m) => m.from.id === a.id).length}; ` +
        `server rows ${row.n}; proxy connections ${proxy.stats.connections}, cuts ${proxy.stats.cuts}; ` +
        `reconnects A ${countsA.connections - 1}, B ${countsB.connections - 1}; ` +
        `send_message frames A ${countsA.sent.send_message ?? 0}, B ${countsB.sent.send_message ?? 0} (resends included); ` +
        `elapsed ${elapsed} s`,
    );
  });
});
