import type WebSocket from 'ws';

export interface HeartbeatTarget {
  readonly ws: Pick<WebSocket, 'ping' | 'close'>;
  lastSeen: number;
  kill(): void;
  /** The node is draining: read nothing more and close with 1012 (reconnect elsewhere, now). */
  drain(): void;
}

export interface HeartbeatTimings {
  /** Each quiet socket is pinged this often. */
  heartbeatMs: number;
  /** A socket silent this long (no frame, no pong) is dropped. */
  deadPeerMs: number;
}

/** The heartbeat ticks about this often, each tick visiting one slice of the sockets. */
const TICK_TARGET_MS = 100;
const MAX_SLICES = 64;

/**
 * Every open `/ws` socket, authenticated or not, and the heartbeat that pings them and drops the silent.
 *
 * Each socket is visited twice per heartbeat: dropped if it has been silent for deadPeerMs (less one
 * visit's interval, so it goes within deadPeerMs of its last sign of life), else pinged on every other
 * visit if it has said nothing for a visit's interval (a socket whose client just sent a frame, or its own
 * ping, is known to be alive, and a new one is not pinged before it has had time to sign in).
 *
 * The sockets are spread over slices and one slice is visited per tick (about every 100 ms), so the work
 * is spread over the heartbeat instead of done for every socket in one timer callback: pinging 1,000
 * sockets at once held the event loop about 17 ms and their 1,000 pongs arrived together, a stall every
 * heartbeat that every message in flight waited behind (and ten times that at 10,000 sockets).
 */
export class HeartbeatSockets<T extends HeartbeatTarget = HeartbeatTarget> implements Iterable<T> {
  private readonly slices: Set<T>[];
  private readonly sliceOf = new Map<T, Set<T>>();
  /** Each socket's visits are this far apart. */
  readonly visitEveryMs: number;
  readonly tickMs: number;
  private tickNo = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly timings: HeartbeatTimings,
    private readonly now: () => number = Date.now,
  ) {
    this.visitEveryMs = Math.max(10, Math.floor(timings.heartbeatMs / 2));
    const sliceCount = Math.min(MAX_SLICES, Math.max(1, Math.floor(this.visitEveryMs / TICK_TARGET_MS)));
    this.slices = Array.from({ length: sliceCount }, () => new Set<T>());
    this.tickMs = Math.max(1, Math.floor(this.visitEveryMs / sliceCount));
  }

  get size(): number {
    return this.sliceOf.size;
  }

  /** Joins the least filled slice, so sockets stay spread evenly as others come and go. */
  add(target: T): void {
    if (this.sliceOf.has(target)) return;
    let smallest = this.slices[0]!;
    for (const slice of this.slices) if (slice.size < smallest.size) smallest = slice;
    smallest.add(target);
    this.sliceOf.set(target, smallest);
  }

  delete(target: T): void {
    this.sliceOf.get(target)?.delete(target);
    this.sliceOf.delete(target);
  }

  *[Symbol.iterator](): Iterator<T> {
    // A copy: a caller may close (and so delete) sockets while it iterates.
    yield* [...this.sliceOf.keys()];
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Visits the next slice: drops its silent sockets and, on every other round, pings the quiet ones. */
  tick(): void {
    const sliceCount = this.slices.length;
    const slice = this.slices[this.tickNo % sliceCount]!;
    const ping = Math.floor(this.tickNo / sliceCount) % 2 === 0;
    this.tickNo++;
    const now = this.now();
    const silentLimit = this.timings.deadPeerMs - this.visitEveryMs;
    for (const target of [...slice]) {
      if (now - target.lastSeen >= silentLimit) target.kill();
      else if (ping && now - target.lastSeen >= this.visitEveryMs) target.ws.ping();
    }
  }
}
