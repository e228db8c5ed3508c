import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_CODES, REALTIME_TIMING } from '@campus/protocol';
import { RealtimeConnection } from '../src/realtime-connection';

/** A socket the test drives: it records itself, and the test closes it with a code as a server would. */
class FakeSocket {
  static opened: FakeSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  send(): void {}
  close(): void {
    this.readyState = 3;
  }
  /** The server closes this socket with `code`. */
  closedBy(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

function connect(random: () => number) {
  const connection = new RealtimeConnection({
    url: 'ws://node/ws',
    token: 't'.repeat(32),
    WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    timing: REALTIME_TIMING,
    random,
    events: { welcome() {}, frame() {}, status() {}, refused() {} },
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
