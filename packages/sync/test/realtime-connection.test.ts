import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import {
  CLOSE_CODES,
  PROTOCOL_VERSION,
  REALTIME_TIMING,
  type ClientFrame,
  type ServerFrame,
} from '@campus/protocol';
import { createSyncClient, openUserDatabase, writeDirectMessage } from '../src';
import { RealtimeConnection, type ConnectionEvents } from '../src/realtime-connection';
import { BO, ME } from './support/fixtures';

/**
 * A socket the test drives: it records itself and what the client sent, and the test plays the server's
 * frames and closes it with a code as a server would.
 */
class FakeSocket {
  static opened: FakeSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  readonly sent: ClientFrame[] = [];
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as ClientFrame);
  }
  close(): void {
    this.readyState = 3;
  }
  /** The socket opens and the server welcomes the hello. */
  welcome(): this {
    this.readyState = 1;
    this.onopen?.();
    return this.deliver({
      type: 'welcome',
      v: PROTOCOL_VERSION,
      userId: 'user-me',
      heartbeatMs: REALTIME_TIMING.heartbeatMs,
    });
  }
  /** The server sends `frame` on this socket. */
  deliver(frame: ServerFrame): this {
    this.onmessage?.({ data: JSON.stringify(frame) } as MessageEvent);
    return this;
  }
  pings(): Extract<ClientFrame, { type: 'ping' }>[] {
    return this.sent.filter((frame) => frame.type === 'ping');
  }
  /** The server closes this socket with `code`. */
  closedBy(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

function connect(random: () => number, events: Partial<ConnectionEvents> = {}) {
  const connection = new RealtimeConnection({
    url: 'ws://node/ws',
    token: 't'.repeat(32),
    WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    timing: REALTIME_TIMING,
    random,
    events: { welcome() {}, frame() {}, status() {}, refused() {}, ...events },
  });
  connection.start();
  return connection;
}

// The rest of the wire behaviour runs against the real server in tests/system (connection, close codes, drain).
describe('how the realtime connection takes a close code', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.opened = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reconnects within reconnectMinMs after 1012 (a draining node), at a jittered moment', async () => {
    for (const [r, expected] of [
      [0, 0],
      [0.5, 500],
      [0.999, 999],
    ] as const) {
      FakeSocket.opened = [];
      const connection = connect(() => r);
      FakeSocket.opened[0]!.closedBy(CLOSE_CODES.serviceRestart);
      if (expected > 0) {
        await vi.advanceTimersByTimeAsync(expected - 1);
        expect(FakeSocket.opened).toHaveLength(1);
      }
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeSocket.opened).toHaveLength(2);
      connection.stop();
    }
  });

  it('does not let earlier failures stretch the wait after a 1012', async () => {
    const connection = connect(() => 0.5);
    // Three failed attempts in a row grow the backoff…
    for (let i = 0; i < 3; i += 1) {
      FakeSocket.opened.at(-1)!.closedBy(CLOSE_CODES.serverError);
      await vi.advanceTimersByTimeAsync(REALTIME_TIMING.reconnectMaxMs);
    }
    expect(FakeSocket.opened).toHaveLength(4);
    // …but a node asking its clients to move on is not one of them.
    FakeSocket.opened.at(-1)!.closedBy(CLOSE_CODES.serviceRestart);
    await vi.advanceTimersByTimeAsync(REALTIME_TIMING.reconnectMinMs / 2);
    expect(FakeSocket.opened).toHaveLength(5);
    connection.stop();
  });

  it('keeps the full backoff for other codes: 1001 and 1011 wait at least reconnectMinMs', async () => {
    for (const code of [CLOSE_CODES.shuttingDown, CLOSE_CODES.serverError]) {
      FakeSocket.opened = [];
      const connection = connect(() => 0);
      FakeSocket.opened[0]!.closedBy(code);
      await vi.advanceTimersByTimeAsync(REALTIME_TIMING.reconnectMinMs - 1);
      expect(FakeSocket.opened).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeSocket.opened).toHaveLength(2);
      connection.stop();
    }
  });

  it('still never reconnects after 4401 or 4426', async () => {
    for (const code of [CLOSE_CODES.unauthorized, CLOSE_CODES.protocolVersion]) {
      FakeSocket.opened = [];
      const connection = connect(() => 0);
      FakeSocket.opened[0]!.closedBy(code);
      await vi.advanceTimersByTimeAsync(REALTIME_TIMING.reconnectMaxMs * 2);
      expect(FakeSocket.opened).toHaveLength(1);
      connection.stop();
    }
  });
});

/** How long the next socket took to open after the current one closed with `code`, in 100 ms steps. */
async function waitAfterClose(code: number): Promise<number> {
  const count = FakeSocket.opened.length;
  FakeSocket.opened.at(-1)!.closedBy(code);
  let waited = 0;
  while (FakeSocket.opened.length === count && waited < REALTIME_TIMING.reconnectMaxMs * 2) {
    await vi.advanceTimersByTimeAsync(100);
    waited += 100;
  }
  return waited;
}

describe('how the realtime connection tells a dead peer and backs off', () => {
  const { heartbeatMs, deadPeerMs, reconnectMaxMs } = REALTIME_TIMING;
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.opened = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps a healthy link whose timer runs a minute late (a hidden tab, throttled), pinging instead', async () => {
    const connection = connect(() => 0.5);
    const socket = FakeSocket.opened[0]!.welcome();
    await vi.advanceTimersByTimeAsync(heartbeatMs);
    expect(socket.pings()).toHaveLength(1);
    socket.deliver({ type: 'pong', t: Date.now() });
    // Chrome runs timers of a page hidden for 5 minutes once a minute: the clock jumps, then one tick runs.
    vi.setSystemTime(Date.now() + 60_000);
    await vi.advanceTimersToNextTimerAsync();
    expect(socket.readyState).toBe(1);
    expect(socket.pings()).toHaveLength(2);
    socket.deliver({ type: 'pong', t: Date.now() });
    await vi.advanceTimersByTimeAsync(reconnectMaxMs);
    expect(FakeSocket.opened).toHaveLength(1);
    connection.stop();
  });

  it('drops the link when a ping goes unanswered for deadPeerMs; any frame answers a ping', async () => {
    const connection = connect(() => 0.5);
    const socket = FakeSocket.opened[0]!.welcome();
    await vi.advanceTimersByTimeAsync(deadPeerMs);
    expect(socket.pings()).not.toHaveLength(0);
    // Not a pong, but the server is alive: the pings out so far are answered.
    socket.deliver({ type: 'ack', deviceId: 'device-1', mid: 1 });
    const answeredAt = Date.now();
    // From now on nothing comes back.
    while (socket.readyState === 1 && Date.now() - answeredAt < deadPeerMs * 3)
      await vi.advanceTimersByTimeAsync(1000);
    expect(socket.readyState).toBe(3);
    const unanswered = socket.pings().find((ping) => ping.t > answeredAt)!;
    expect(Date.now() - unanswered.t).toBeGreaterThan(deadPeerMs);
    expect(Date.now() - unanswered.t).toBeLessThanOrEqual(deadPeerMs + heartbeatMs);
    await vi.advanceTimersByTimeAsync(reconnectMaxMs);
    expect(FakeSocket.opened).toHaveLength(2);
    connection.stop();
  });

  it('backs off across attempts that fail after welcome, and starts afresh once a session caught up', async () => {
    let generation = 0;
    const connection = connect(() => 0.5, { welcome: (_frame, g) => (generation = g) });
    // Welcomed, then closed (the server failing on every pull): the waits grow as before a welcome.
    const waits: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      FakeSocket.opened.at(-1)!.welcome();
      waits.push(await waitAfterClose(CLOSE_CODES.serverError));
    }
    expect(waits).toEqual([1000, 2000, 4000, 5000]);
    // A session that applied its pull proves the link: the next failure waits the least again.
    FakeSocket.opened.at(-1)!.welcome();
    connection.caughtUp(generation);
    expect(await waitAfterClose(CLOSE_CODES.serverError)).toBe(1000);
    connection.stop();
  });
});

describe('the engine and the backoff', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    FakeSocket.opened = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps backing off while sessions fail before their pull is applied, and starts afresh after one is', async () => {
    const client = createSyncClient({
      self: ME,
      token: 't'.repeat(32),
      baseUrl: 'http://campus.test',
      wsUrl: 'ws://node/ws',
      db: openUserDatabase(ME.id, { indexedDB: new IDBFactory(), IDBKeyRange }),
      fetchImpl: () => Promise.reject(new TypeError('no server in unit tests')),
      network: null,
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      random: () => 0.5,
    });
    await client.run(writeDirectMessage, BO, 'queued before the link works');
    client.start();
    const waits: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      FakeSocket.opened.at(-1)!.welcome();
      waits.push(await waitAfterClose(CLOSE_CODES.serverError));
    }
    expect(waits).toEqual([1000, 2000]);
    const socket = FakeSocket.opened.at(-1)!.welcome();
    // vi.waitFor polls on real timers, so IndexedDB (fake-indexeddb's setImmediate, left real) gets to run.
    await vi.waitFor(() => expect(socket.sent.map((frame) => frame.type)).toContain('pull'));
    socket.deliver({ type: 'changes', changes: [], cursor: 0, hasMore: false });
    // Live: the outbox went out.
    await vi.waitFor(() => expect(socket.sent.map((frame) => frame.type)).toContain('send_message'));
    expect(await waitAfterClose(CLOSE_CODES.serverError)).toBe(1000);
    await client.stop();
  });
});
