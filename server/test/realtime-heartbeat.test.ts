import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HeartbeatSockets, type HeartbeatTarget } from '../src/realtime/heartbeat';

/** A socket as the heartbeat sees it, recording when it was pinged or killed (fake clock). */
class FakeSocket implements HeartbeatTarget {
  readonly pings: number[] = [];
  killedAt: number | undefined;
  readonly ws = {
    ping: () => void this.pings.push(Date.now()),
    close: () => undefined,
  };
  constructor(public lastSeen: number) {}
  kill(): void {
    this.killedAt ??= Date.now();
  }
  drain(): void {}
}

const HEARTBEAT = { heartbeatMs: 10_000, deadPeerMs: 30_000 };

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_000_000);
});
afterEach(() => vi.useRealTimers());

/**
 * Pings sent per timer callback over `ms` (each tick is one callback). The sockets answer each ping at once
 * (a pong is a sign of life); 'quiet' ones say nothing else, 'busy' ones also send a frame every tick.
 */
function pingsPerTick(
  sockets: HeartbeatSockets<FakeSocket>,
  all: FakeSocket[],
  ms: number,
  clients: 'quiet' | 'busy',
): number[] {
  const counts: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const before = all.reduce((sum, s) => sum + s.pings.length, 0);
    vi.advanceTimersByTime(sockets.tickMs);
    for (const socket of all)
      if (clients === 'busy' || socket.pings.at(-1) === Date.now()) socket.lastSeen = Date.now();
    counts.push(all.reduce((sum, s) => sum + s.pings.length, 0) - before);
  }
  return counts;
}

describe('the heartbeat', () => {
  it('pings every socket once per heartbeat, spread over the heartbeat instead of all in one callback', () => {
    const sockets = new HeartbeatSockets<FakeSocket>(HEARTBEAT);
    const all = Array.from({ length: 1000 }, () => new FakeSocket(Date.now()));
    for (const socket of all) sockets.add(socket);
    sockets.start();

    // Not pinged in their first half heartbeat (they have just been heard), then once per heartbeat.
    const counts = pingsPerTick(sockets, all, 3 * HEARTBEAT.heartbeatMs + sockets.visitEveryMs, 'quiet');
    sockets.stop();

    for (const socket of all) {
      expect(socket.pings.length).toBeGreaterThanOrEqual(3);
      expect(socket.pings[0]! - 1_000_000).toBeGreaterThanOrEqual(sockets.visitEveryMs);
      for (let i = 1; i < socket.pings.length; i++)
        expect(socket.pings[i]! - socket.pings[i - 1]!).toBe(HEARTBEAT.heartbeatMs);
    }
    // No callback pinged more than a fiftieth of them (the old heartbeat pinged all 1,000 in one).
    expect(Math.max(...counts)).toBeLessThanOrEqual(20);
    expect(counts.filter((n) => n > 0).length).toBeGreaterThanOrEqual(150);
  });

  it('does not ping a socket whose client was heard within the last half heartbeat', () => {
    const sockets = new HeartbeatSockets<FakeSocket>(HEARTBEAT);
    const all = Array.from({ length: 100 }, () => new FakeSocket(Date.now()));
    for (const socket of all) sockets.add(socket);
    sockets.start();
    pingsPerTick(sockets, all, 3 * HEARTBEAT.heartbeatMs, 'busy');
    sockets.stop();
    for (const socket of all) expect(socket.pings).toEqual([]);
  });

  it('drops a silent socket within deadPeerMs of its last sign of life, and not before', () => {
    const sockets = new HeartbeatSockets<FakeSocket>(HEARTBEAT);
    const started = Date.now();
    const silent = new FakeSocket(started);
    const talking = new FakeSocket(started);
    sockets.add(silent);
    sockets.add(talking);
    sockets.start();
    for (let t = 0; t < HEARTBEAT.deadPeerMs + HEARTBEAT.heartbeatMs; t += sockets.tickMs) {
      vi.advanceTimersByTime(sockets.tickMs);
      talking.lastSeen = Date.now();
    }
    sockets.stop();

    expect(talking.killedAt).toBeUndefined();
    expect(silent.killedAt).toBeDefined();
    const silentFor = silent.killedAt! - started;
    expect(silentFor).toBeGreaterThanOrEqual(HEARTBEAT.deadPeerMs - sockets.visitEveryMs);
    expect(silentFor).toBeLessThanOrEqual(HEARTBEAT.deadPeerMs);
  });

  it('forgets a closed socket and keeps the slices even as sockets come and go', () => {
    const sockets = new HeartbeatSockets<FakeSocket>(HEARTBEAT);
    const first = Array.from({ length: 640 }, () => new FakeSocket(Date.now()));
    for (const socket of first) sockets.add(socket);
    // Sockets are dealt to the 50 slices in turn: leaving are all those of the first 25 slices, which
    // then stand empty; the newcomers must fill them rather than pile onto the others.
    const leaving = first.filter((_, i) => i % 50 < 25);
    const staying = first.filter((_, i) => i % 50 >= 25);
    for (const socket of leaving) sockets.delete(socket);
    const newcomers = Array.from({ length: leaving.length }, () => new FakeSocket(Date.now()));
    for (const socket of newcomers) sockets.add(socket);
    expect(sockets.size).toBe(640);
    expect([...sockets]).toHaveLength(640);

    sockets.start();
    const all = [...staying, ...newcomers];
    const counts = pingsPerTick(sockets, all, HEARTBEAT.heartbeatMs + sockets.visitEveryMs, 'quiet');
    sockets.stop();

    for (const socket of leaving) expect(socket.pings).toHaveLength(0);
    for (const socket of all) expect(socket.pings.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...counts)).toBeLessThanOrEqual(Math.ceil(640 / 50));
  });

  it('a short heartbeat (tests use 100 ms) still visits every socket twice per heartbeat', () => {
    const sockets = new HeartbeatSockets<FakeSocket>({ heartbeatMs: 100, deadPeerMs: 300 });
    const silent = new FakeSocket(Date.now());
    sockets.add(silent);
    sockets.start();
    vi.advanceTimersByTime(300);
    sockets.stop();
    expect(silent.pings.length).toBeGreaterThanOrEqual(1);
    expect(silent.killedAt).toBeDefined();
    expect(silent.killedAt! - 1_000_000).toBeLessThanOrEqual(300);
  });
});
