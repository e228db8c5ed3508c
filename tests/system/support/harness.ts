import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { addStudent, type Student } from '../../../server/test/chat-rest-helpers';
import {
  createSyncClient,
  openUserDatabase,
  type CampusDatabase,
  type RealtimeTiming,
  type SyncClient,
} from '../../../packages/sync/src';

export type { Student, TestServer };
export { addStudent };

/** The real server on a temp SQLite database; mutation rate limits raised so a test can send in bursts. */
export function startSystemServer(): Promise<TestServer> {
  return startTestServer({ realtime: { ratePerSecond: 100_000, rateBurst: 100_000 } });
}

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
  timing?: Partial<RealtimeTiming>;
}

export function startDevice(options: DeviceOptions): SyncClient {
  const port = options.port ?? options.server.port;
  const client = createSyncClient({
    self: options.student.ref,
    token: options.student.token,
    baseUrl: options.server.url,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    db: options.db,
    WebSocketImpl: options.counts ? countingWebSocket(options.counts) : WebSocket,
    timing: options.timing,
  });
  client.start();
  return client;
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
