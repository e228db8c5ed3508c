import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import type { Logger } from '../lib/logger';

export interface LeaseTimings {
  /** How long a holder keeps the lease without renewing it (the key's expiry in Redis). */
  ttlMs: number;
  /** How often the holder renews it, and everyone else tries to take it. */
  renewEveryMs: number;
  /**
   * The holder stops counting itself the holder this long before the expiry it asked for: clocks of two
   * machines run at slightly different rates, and the other nodes' only evidence is the key's expiry.
   */
  marginMs: number;
}

export const LEASE_TIMINGS: LeaseTimings = { ttlMs: 5000, renewEveryMs: 1000, marginMs: 1000 };

export interface LeaseHooks {
  /** This node just became the holder. */
  acquired(): void;
  /** This node was the holder and no longer is (the renewal failed or came too late). */
  lost(): void;
}

/**
 * Take the key when free, or renew it when it is ours, in one atomic step; answers the holder's id.
 * (`SET NX` alone cannot renew, and a GET then a SET would let two nodes both see it free.)
 */
const TAKE_OR_RENEW = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
return holder`;

/** Deletes the key only while it is ours: a late release must not drop the next holder's lease. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * One Redis key naming the node that coordinates something for the whole deployment (issue 14: random
 * talk's queues and rooms, the calls). At most one node counts itself the holder at any instant: the
 * holder's own deadline is measured from before it sent the renewal and ends `marginMs` before the key
 * can expire, so by the time another node can take the key the old holder has stopped acting on it.
 * A holder that cannot reach Redis stops at its deadline; another node takes over once the key expired.
 */
export class Lease {
  /** performance.now() until which this node holds the lease. */
  private heldUntil = 0;
  /** Who held it at the last look (undefined: free, or not looked yet). */
  private holder: string | undefined;
  private wasHeld = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly client: Redis,
    private readonly key: string,
    private readonly nodeId: string,
    private readonly hooks: LeaseHooks,
    private readonly log: Logger,
    private readonly timings: LeaseTimings = LEASE_TIMINGS,
  ) {}

  /** Tries at once, then every `renewEveryMs`. */
  start(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.timings.renewEveryMs);
    this.timer.unref();
  }

  get held(): boolean {
    return !this.stopped && performance.now() < this.heldUntil;
  }

  /** Nobody held the lease at the last look (the holder released it, or it expired). */
  get vacant(): boolean {
    return this.holder === undefined;
  }

  /** The holder announced it let go: worth trying now rather than at the next tick. */
  forgetHolder(): void {
    if (this.holder !== this.nodeId) this.holder = undefined;
  }

  /** One attempt to take or renew (joined while one is in flight). */
  tick(): Promise<void> {
    this.inFlight ??= this.attempt().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Stops renewing and lets go of the lease if it is ours (another node may take it at once). */
  async stop(): Promise<boolean> {
    const held = this.held;
    this.stopped = true;
    clearInterval(this.timer);
    await this.inFlight;
    if (!held) return false;
    try {
      await this.client.eval(RELEASE, 1, this.key, this.nodeId);
    } catch (err) {
      // It expires by itself.
      this.log.warn({ err, key: this.key }, 'lease release failed');
    }
    return true;
  }

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    const sentAt = performance.now();
    const deadline = sentAt + this.timings.ttlMs - this.timings.marginMs;
    try {
      const answer = await this.client.eval(TAKE_OR_RENEW, 1, this.key, this.nodeId, this.timings.ttlMs);
      this.holder = typeof answer === 'string' ? answer : undefined;
      if (this.holder === this.nodeId) this.heldUntil = Math.max(this.heldUntil, deadline);
      // Someone else holds it: whatever this node believed, it stops now.
      else this.heldUntil = 0;
    } catch (err) {
      // Redis is away: the lease runs out at its deadline, never extended blindly.
      this.log.warn({ err, key: this.key }, 'lease renewal failed');
    }
    if (this.stopped) return;
    const held = this.held;
    if (held === this.wasHeld) return;
    this.wasHeld = held;
    if (held) this.hooks.acquired();
    else this.hooks.lost();
  }
}
