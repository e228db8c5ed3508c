import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CALL_MSG,
  PROTOCOL_VERSION,
  type CallLog,
  type CallServerFrame,
  type ClientFrame,
  type RandomServerFrame,
} from '@campus/protocol';
import { createSyncClient, openUserDatabase, type SyncClient } from '../src';
import { campusFeatures } from '../src/features';
import { deliver } from './support/engine';
import { BO, CY, ME, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

let clock = Date.parse('2026-11-23T09:00:00.000Z');
function callLog(extra: Partial<CallLog> = {}): CallLog {
  clock += 60_000;
  return {
    id: crypto.randomUUID(),
    status: 'completed',
    callType: 'audio',
    caller: ME,
    callee: BO,
    startedAt: new Date(clock).toISOString(),
    duration: 65,
    ...extra,
  };
}

const newestFirst = async (c: SyncClient) =>
  (await c.db.callLogs.orderBy('startedAt').reverse().toArray()).map((log) => log.id);

/** A fetch that answers the call-logs route from `pages` (keyed by `before`, '' for the first page). */
function callLogsServer(pages: Record<string, { status: number; body: unknown }>) {
  const urls: string[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    urls.push(url.pathname + url.search);
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer session-token-0123456789');
    const page = pages[url.searchParams.get('before') ?? ''];
    if (url.pathname !== '/api/users/call-logs' || !page) return new Response('{}', { status: 404 });
    return new Response(JSON.stringify(page.body), { status: page.status });
  };
  return { urls, fetchImpl };
}

const freshDb = () => openUserDatabase(ME.id, { indexedDB: new IDBFactory(), IDBKeyRange });

describe('call logs in the cache', () => {
  it('stores a logged call once however often it arrives', async () => {
    const c = (client = makeClient());
    const missed = callLog({ status: 'missed', caller: BO, callee: ME, duration: 0 });
    const done = callLog({ callType: 'video', callee: CY });
    await deliver(c, [
      { type: 'call_logged', log: missed },
      { type: 'call_logged', log: done },
      { type: 'call_logged', log: missed },
    ]);
    expect(await newestFirst(c)).toEqual([done.id, missed.id]);
    expect(await c.db.callLogs.get(missed.id)).toEqual(missed);
    expect(await c.db.meta.get('sync.cursor')).toMatchObject({ value: 3 });
  });

  it('loads pages of call history through REST and says where the next page starts', async () => {
    const older = callLog();
    const a = callLog();
    const b = callLog({ status: 'no_answer', duration: 0 });
    const server = callLogsServer({
      '': { status: 200, body: { logs: [b, a], nextBefore: 'cursor-1' } },
      'cursor-1': { status: 200, body: { logs: [older], nextBefore: null } },
    });
    const c = (client = makeClient(freshDb(), server.fetchImpl));
    expect(await c.loadCallLogs()).toEqual({ nextBefore: 'cursor-1' });
    expect(await newestFirst(c)).toEqual([b.id, a.id]);
    expect(await c.loadCallLogs('cursor-1')).toEqual({ nextBefore: null });
    expect(await newestFirst(c)).toEqual([b.id, a.id, older.id]);
    expect(server.urls).toEqual([
      '/api/users/call-logs?limit=30',
      '/api/users/call-logs?limit=30&before=cursor-1',
    ]);
  });

  it('rejects with the spec text when the server fails or answers nonsense, keeping the cache', async () => {
    const kept = callLog();
    const broken = callLogsServer({
      '': { status: 500, body: { error: 'boom' } },
      bad: { status: 200, body: { logs: [{ id: 1 }], nextBefore: null } },
    });
    const c = (client = makeClient(freshDb(), broken.fetchImpl));
    await c.db.callLogs.put(kept);
    await expect(c.loadCallLogs()).rejects.toThrow(CALL_MSG.fetchLogsFailed);
    await expect(c.loadCallLogs('bad')).rejects.toThrow(CALL_MSG.fetchLogsFailed);
    expect(await newestFirst(c)).toEqual([kept.id]);
  });

  it('loads the first page again after a sync reset (the snapshot carries no call logs)', async () => {
    const log = callLog();
    const server = callLogsServer({ '': { status: 200, body: { logs: [log], nextBefore: null } } });
    const db = freshDb();
    const { features } = campusFeatures({ db, send: () => false });
    const rest = { db, selfId: ME.id, baseUrl: 'http://campus.test', token: 'session-token-0123456789' };
    await Promise.allSettled(
      features.afterReset.map((load) => load({ ...rest, fetchImpl: server.fetchImpl })),
    );
    expect(await db.callLogs.toArray()).toEqual([log]);
    db.close();
  });
});

/** A WebSocket the test plays the server on: it records what the client sends and delivers frames. */
class ScriptedSocket {
  static last: ScriptedSocket | undefined;
  readyState = 0;
  sent: ClientFrame[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    ScriptedSocket.last = this;
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as ClientFrame);
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
    this.deliver({ type: 'welcome', v: PROTOCOL_VERSION, userId: ME.id, heartbeatMs: 10_000 });
  }
  deliver(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({ code: 1006 });
  }
}

function connectedClient(): { c: SyncClient; socket: () => ScriptedSocket } {
  const c = createSyncClient({
    self: ME,
    token: 'session-token-0123456789',
    baseUrl: 'http://campus.test',
    wsUrl: 'ws://campus.test/ws',
    db: freshDb(),
    WebSocketImpl: ScriptedSocket as unknown as typeof WebSocket,
    fetchImpl: () => Promise.reject(new TypeError('offline')),
    network: null,
    timing: { reconnectMinMs: 60_000, reconnectMaxMs: 60_000 },
  });
  c.start();
  return { c, socket: () => ScriptedSocket.last! };
}

const CALL_ID = '0b7f1f9e-3c1d-4f7a-9a53-6a4f0c2b9e11';
const offer: CallServerFrame = {
  type: 'call:offer',
  callId: CALL_ID,
  from: BO,
  callType: 'video',
  signal: { type: 'offer', sdp: 'v=0 offer' },
};

describe('call signalling on the session', () => {
  it('hands call frames to the listeners as they arrive, apart from presence and typing', async () => {
    const { c, socket } = connectedClient();
    client = c;
    const heard: CallServerFrame[] = [];
    const stop = c.onCallFrame((frame) => heard.push(frame));
    socket().open();
    const before = c.getState();

    socket().deliver(offer);
    socket().deliver({ type: 'call:end', callId: CALL_ID, reason: 'answered_elsewhere' });
    // Synchronous: no task queue, no wait for the pull.
    expect(heard).toEqual([offer, { type: 'call:end', callId: CALL_ID, reason: 'answered_elsewhere' }]);
    expect(c.getState()).toBe(before);

    // Presence still reaches the store, and not the call listeners.
    socket().deliver({ type: 'user_online', userId: BO.id });
    expect(c.getState().online.has(BO.id)).toBe(true);
    expect(heard).toHaveLength(2);

    stop();
    socket().deliver({ type: 'call:ringing', callId: CALL_ID });
    expect(heard).toHaveLength(2);
  });

  it('sends call frames only while the session is live: never queued for later', async () => {
    const { c, socket } = connectedClient();
    client = c;
    const reject = { type: 'call:reject', callId: CALL_ID, to: BO.id } as const;
    expect(c.sendCallFrame(reject)).toBe(false);
    socket().open();
    expect(c.sendCallFrame(reject)).toBe(true);
    expect(socket().sent.filter((f) => f.type.startsWith('call:'))).toEqual([reject]);

    const first = socket();
    first.drop();
    expect(c.getState().status).toBe('offline');
    expect(c.sendCallFrame({ type: 'call:resume', callId: CALL_ID })).toBe(false);
    expect(await c.db.outbox.count()).toBe(0);
    expect(first.sent.filter((f) => f.type.startsWith('call:'))).toEqual([reject]);
  });

  it('a listener that throws does not keep the frame from the others', () => {
    const { c, socket } = connectedClient();
    client = c;
    const heard: string[] = [];
    const quiet = console.error;
    console.error = () => undefined;
    try {
      c.onCallFrame(() => {
        throw new Error('broken screen');
      });
      c.onCallFrame((frame) => heard.push(frame.type));
      socket().open();
      socket().deliver(offer);
    } finally {
      console.error = quiet;
    }
    expect(heard).toEqual(['call:offer']);
  });
});

describe('random talk on the session', () => {
  it('hands random frames to their listeners only, and sends them only while live', () => {
    const { c, socket } = connectedClient();
    client = c;
    const random: RandomServerFrame[] = [];
    const calls: CallServerFrame[] = [];
    c.onRandomFrame((frame) => random.push(frame));
    c.onCallFrame((frame) => calls.push(frame));
    const find = { type: 'find-partner', kind: 'audio' } as const;
    expect(c.sendRandomFrame(find)).toBe(false);
    socket().open();

    const found: RandomServerFrame = {
      type: 'partner-found',
      roomId: 'room-1',
      kind: 'audio',
      isInitiator: true,
      partner: { firstName: 'Bo', profilePictureUrl: null, college: 'IIT Delhi', course: 'ECE' },
      endsAt: '2026-11-23T09:10:00.000Z',
    };
    const text: RandomServerFrame = {
      type: 'chat-message',
      roomId: 'room-1',
      text: 'hi',
      timestamp: '2026-11-23T09:00:01.000Z',
      i: 1,
    };
    socket().deliver(found);
    socket().deliver(text);
    socket().deliver(offer);
    expect(random).toEqual([found, text]);
    expect(calls).toEqual([offer]);

    expect(c.sendRandomFrame(find)).toBe(true);
    expect(socket().sent.filter((f) => f.type === 'find-partner')).toEqual([find]);
    socket().drop();
    expect(c.sendRandomFrame({ type: 'leave-random-queue' })).toBe(false);
  });
});
