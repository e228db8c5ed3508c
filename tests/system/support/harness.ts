import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { addStudent, type Student } from '../../../server/test/chat-rest-helpers';
import {
  createSyncClient,
  openUserDatabase,
  type CampusDatabase,
  type NetworkSignal,
  type RealtimeTiming,
  type SyncClient,
  writeDirectMessage,
} from '../../../packages/sync/src';
import { readCursor } from '../../../packages/sync/src/meta';
import type { Wire } from './wire';

export type { Student, TestServer };
export { addStudent };

type RealtimeOverrides = NonNullable<Parameters<typeof startTestServer>[0]>['realtime'];

/**
 * The real server on a temp SQLite database; mutation rate limits raised so a test can send in bursts
 * (`realtime` overrides them and the other tunables, e.g. a small pull page size).
 */
export function startSystemServer(realtime: RealtimeOverrides = {}): Promise<TestServer> {
  return startTestServer({ realtime: { ratePerSecond: 100_000, rateBurst: 100_000, ...realtime } });
}

/** Reconnects in tens of milliseconds so tests run fast; the real bounds are tested on reconnectDelay. */
export const FAST: RealtimeTiming = {
  reconnectMinMs: 10,
  reconnectMaxMs: 40,
  connectTimeoutMs: 1000,
  heartbeatMs: 1000,
  deadPeerMs: 3000,
};

/** What a client's sockets did: connections opened and frames sent, by type. */
export interface WireCounts {
  connections: number;
  sent: Record<string, number>;
  /** Mutation frames as sent, when given: (deviceId, mid, message id). */
  mutations?: { deviceId: string; mid: number; id?: string }[];
}

/** Node's global WebSocket, counting connections and the frames sent through it. */
export function countingWebSocket(counts: WireCounts): typeof WebSocket {
  return class CountingWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      counts.connections += 1;
    }
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
      if (typeof data === 'string') {
        const type = /"type":"([^"]+)"/.exec(data)?.[1] ?? '?';
        counts.sent[type] = (counts.sent[type] ?? 0) + 1;
        if (counts.mutations && data.includes('"deviceId"')) {
          const { deviceId, mid, id } = JSON.parse(data) as { deviceId: string; mid: number; id?: string };
          counts.mutations.push({ deviceId, mid, id });
        }
      }
      super.send(data);
    }
  };
}

/** A device of `student`: its own IndexedDB (fake-indexeddb factory), its own Dexie database. */
export function newDeviceDatabase(student: Student): CampusDatabase {
  return openUserDatabase(student.id, { indexedDB: new IDBFactory(), IDBKeyRange });
}

export interface DeviceOptions {
  server: TestServer;
  student: Student;
  db: CampusDatabase;
  /** Port to connect to instead of the server's (a proxy). */
  port?: number;
  counts?: WireCounts;
  /** Records the device's frames (takes precedence over `counts`). */
  wire?: Wire;
  timing?: Partial<RealtimeTiming>;
  /** The device's network switch (fakeNetwork); none by default, as in Node. */
  network?: NetworkSignal;
  /** Sign in with this token instead of the student's session. */
  token?: string;
  /** The reconnect jitter's source (Math.random by default). */
  random?: () => number;
}

/** A device not started yet: what it writes waits in its outbox. */
export function newDevice(options: DeviceOptions): SyncClient {
  const port = options.port ?? options.server.port;
  return createSyncClient({
    self: options.student.ref,
    token: options.token ?? options.student.token,
    baseUrl: options.server.url,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    db: options.db,
    WebSocketImpl:
      options.wire?.WebSocketImpl ?? (options.counts ? countingWebSocket(options.counts) : WebSocket),
    timing: options.timing,
    network: options.network ?? null,
    random: options.random,
  });
}

export function startDevice(options: DeviceOptions): SyncClient {
  const client = newDevice(options);
  client.start();
  return client;
}

/** Polls until `check` passes (returns anything but false without throwing); rethrows its last failure. */
export async function waitFor(check: () => unknown, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = new Error('waitFor timed out');
  while (Date.now() < deadline) {
    try {
      if ((await check()) !== false) return;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw last;
}

/** Polls until `check` returns true. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A chat's messages in server order (seq), as the device holds them. */
export async function chatBySeq(db: CampusDatabase, peerId: string) {
  const rows = await db.messages
    .where('[peerId+seq]')
    .between([peerId, -Infinity], [peerId, Infinity])
    .toArray();
  return rows;
}

/** True once the device has nothing left to send and holds `count` messages of the chat in server order. */
export async function holdsAll(db: CampusDatabase, peerId: string, count: number): Promise<boolean> {
  return (await db.outbox.count()) === 0 && (await chatBySeq(db, peerId)).length === count;
}

/** One side of a two-device exchange: the student, their device's client and its database. */
export interface ExchangeSide {
  student: Student;
  client: SyncClient;
  db: CampusDatabase;
}

/**
 * Readies A's and B's devices for an exchange that must reach them as changes. A device's first sync is a
 * snapshot (the last 30 messages per chat; older ones load through REST), so both first finish it and reach
 * a cursor past 0, through a message from `third` (another student's device) to each. Then B writes first
 * (`B-0`) and A answers (`A-0`), each accepted before the bursts: until someone has answered only 10 messages
 * reach them, and either side's first burst could otherwise land before the other's. Resolves with the two
 * messages' ids. Each wait may take `timeoutMs`.
 */
export async function openExchange(
  a: ExchangeSide,
  b: ExchangeSide,
  third: SyncClient,
  timeoutMs: number,
): Promise<{ firstA: string; firstB: string }> {
  await third.run(writeDirectMessage, a.student.ref, 'welcome A');
  await third.run(writeDirectMessage, b.student.ref, 'welcome B');
  await until(
    async () => (await readCursor(a.db)) > 0 && (await readCursor(b.db)) > 0,
    timeoutMs,
    'both devices to finish their first sync',
  );
  const firstB = await b.client.run(writeDirectMessage, a.student.ref, 'B-0');
  await until(async () => (await b.db.outbox.count()) === 0, timeoutMs, "Ben's first message to be accepted");
  const firstA = await a.client.run(writeDirectMessage, b.student.ref, 'A-0');
  await until(async () => (await a.db.outbox.count()) === 0, timeoutMs, "Ana's answer to be accepted");
  return { firstA, firstB };
}

/** What a device holds, for the log of a test that got stuck: messages by status, its outbox and cursor. */
export async function describeDevice(db: CampusDatabase, peerId: string) {
  const rows = await db.messages.toArray();
  const statuses: Record<string, number> = {};
  for (const m of rows) statuses[m.status] = (statuses[m.status] ?? 0) + 1;
  const outbox = await db.outbox.toArray();
  return {
    messages: rows.length,
    bySeq: (await chatBySeq(db, peerId)).length,
    statuses,
    outbox: outbox.length,
    outboxHead: outbox.slice(0, 3).map((r) => ({ key: r.key, mid: r.mid, type: r.frame.type })),
    cursor: (await db.meta.toArray()).map((r) => [r.key, r.value]),
  };
}

/** The highest seq in the server's change log (0 when empty). */
export function headSeq(server: TestServer): number {
  const row = server.deps.sqlite.prepare('SELECT MAX(seq) AS seq FROM change_log').get() as {
    seq: number | null;
  };
  return row.seq ?? 0;
}

/**
 * Brings the device past its first sync, which is a snapshot (sync_reset) rather than pages of changes: the
 * log gets a change if it has none (two other students start a group), the device syncs and stops. From then
 * on it catches up by pulling changes after its cursor. Resolves with that cursor.
 */
export async function syncOnce(server: TestServer, student: Student, db: CampusDatabase): Promise<number> {
  if (headSeq(server) === 0) {
    const [x, y] = [await addStudent(server, 'Xia', 'Seed'), await addStudent(server, 'Yun', 'Seed')];
    const res = await server.post('/api/groups', { name: 'Seed', memberIds: [y.id] }, x.token);
    if (res.status !== 201) throw new Error(`seed group: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const client = startDevice({ server, student, db, timing: FAST });
  try {
    await until(async () => (await readCursor(db)) > 0, 10_000, 'the first sync');
  } finally {
    await client.stop();
  }
  return readCursor(db);
}

/** A network switch the test flips, standing in for the browser's online/offline events. */
export function fakeNetwork() {
  let up = true;
  const listeners = new Set<(online: boolean) => void>();
  return {
    signal: {
      online: () => up,
      onChange(listener: (online: boolean) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    } satisfies NetworkSignal,
    set(online: boolean) {
      up = online;
      for (const listener of listeners) listener(online);
    },
  };
}
