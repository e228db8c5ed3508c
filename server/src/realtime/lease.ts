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

/**
 * Redis keys the holder keeps its state in (coordinator.ts: a feature's calls, rooms and queues, for the
 * next holder to carry on). Their expiry is pushed back with every renewal, in the renewal's own round
 * trip: while some node holds the lease they never expire; once none does (every node stopped) they last
 * `ttlMs` more for the next one to pick up, then go.
 */
export interface LeaseState {
  keys: readonly string[];
  ttlMs: number;
}

/**
 * One write to the holder's state: a hash field set or deleted, or a whole key emptied. The number picks
 * the key in `LeaseState.keys`.
 */
export type StateOp =
  | readonly ['set', key: number, field: string, value: string]
  | readonly ['del', key: number, field: string]
  | readonly ['clear', key: number];

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
  for i = 2, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
  return ARGV[1]
end
return holder`;

/** Deletes the key only while it is ours: a late release must not drop the next holder's lease. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * The holder's state writes, applied only while the lease is the writer's (a node that lost it without
 * knowing yet cannot overwrite what the next holder loaded), in one round trip. KEYS[1] the lease, then
 * the state keys; ARGV[1] the writer, ARGV[2] the keys' expiry (ms), then four per write: s(et), d(el) or
 * c(lear), the key's index in KEYS, the field, the value.
 */
const FENCED_WRITE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 3, #ARGV, 4 do
  local key = KEYS[tonumber(ARGV[i + 1])]
  if ARGV[i] == 's' then redis.call('HSET', key, ARGV[i + 2], ARGV[i + 3])
  elseif ARGV[i] == 'd' then redis.call('HDEL', key, ARGV[i + 2])
  else redis.call('DEL', key) end
end
for i = 2, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
return 1`;

/** KEYS indexes are 1-based and the lease is KEYS[1]: state key `i` is KEYS[i + 2]. */
function argsOf(op: StateOp): string[] {
  const key = String(op[1] + 2);
  switch (op[0]) {
    case 'set':
      return ['s', key, op[2], op[3]];
    case 'del':
      return ['d', key, op[2], ''];
    case 'clear':
      return ['c', key, '', ''];
  }
}

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
  /** Fires at the holder's deadline: `lost` is heard then, even while a renewal hangs on a dead link. */
  private expiry: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly client: Redis,
    private readonly key: string,
    private readonly nodeId: string,
    private readonly hooks: LeaseHooks,
    private readonly log: Logger,
    private readonly timings: LeaseTimings = LEASE_TIMINGS,
    private readonly state: LeaseState = { keys: [], ttlMs: 0 },
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

  /**
   * Applies `ops` to the state keys in one round trip, if the lease is still this node's in Redis:
   * `refused` when it is not, `failed` when Redis did not answer (either logged here; a failed write may
   * or may not have been applied).
   */
  async write(ops: readonly StateOp[]): Promise<'written' | 'refused' | 'failed'> {
    if (!ops.length) return 'written';
    const keys = [this.key, ...this.state.keys];
    try {
      const args = [this.nodeId, String(this.state.ttlMs), ...ops.flatMap(argsOf)];
      if ((await this.client.eval(FENCED_WRITE, keys.length, ...keys, ...args)) === 1) return 'written';
      this.log.warn({ key: this.key }, 'state write refused: the lease is no longer ours');
      return 'refused';
    } catch (err) {
      this.log.warn({ err, key: this.key }, 'state write failed');
      return 'failed';
    }
  }

  /** Every field of state key `key` (a hash). */
  read(key: number): Promise<Record<string, string>> {
    return this.client.hgetall(this.state.keys[key]!);
  }

  /** Stops renewing and lets go of the lease if it is ours (another node may take it at once). */
  async stop(): Promise<boolean> {
    const held = this.held;
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.expiry);
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
    let late: NodeJS.Timeout | undefined;
    try {
      const { keys, ttlMs } = this.state;
      const renewal = this.client.eval(
        TAKE_OR_RENEW,
        1 + keys.length,
        this.key,
        ...keys,
        this.nodeId,
        this.timings.ttlMs,
        ttlMs,
      );
      // A link that died without a word (no RST, no timeout of its own) would hold the renewal, and with
      // it every later tick, for good: given up once the key would have expired anyway.
      const gaveUp = new Promise<never>((_, reject) => {
        late = setTimeout(() => reject(new Error('lease renewal got no answer')), this.timings.ttlMs);
      });
      renewal.catch(() => undefined);
      const answer = await Promise.race([renewal, gaveUp]);
      this.holder = typeof answer === 'string' ? answer : undefined;
      if (this.holder === this.nodeId) this.heldUntil = Math.max(this.heldUntil, deadline);
      // Someone else holds it: whatever this node believed, it stops now.
      else this.heldUntil = 0;
    } catch (err) {
      // Redis is away: the lease runs out at its deadline, never extended blindly.
      this.log.warn({ err, key: this.key }, 'lease renewal failed');
    } finally {
      clearTimeout(late);
    }
    this.settle();
    if (!this.held) return;
    clearTimeout(this.expiry);
    this.expiry = setTimeout(() => this.settle(), Math.max(0, this.heldUntil - performance.now()) + 1);
    this.expiry.unref();
  }

  /** Tells the hooks when holding changed since they last heard. */
  private settle(): void {
    if (this.stopped) return;
    const held = this.held;
    if (held === this.wasHeld) return;
    this.wasHeld = held;
    if (held) this.hooks.acquired();
    else this.hooks.lost();
  }
}

/** A state write Redis did not answer is sent again this long after. */
const WRITE_RETRY_MS = 100;

/**
 * The holder's state writes for one term: what one step (a frame, a timer) writes goes out together, in
 * one fenced round trip at the end of that turn of the event loop; once the term is over, nothing more.
 * One round trip at a time, in order: a write Redis did not answer (a blip shorter than the lease) is sent
 * again, ahead of what was written since, until it lands or the term ends (the lease lost, or refused), so
 * what the next holder loads is never missing a transition this one made and told its clients about.
 */
export class StateWriter {
  private active = true;
  private ops: StateOp[] = [];
  /** Ops pushed, and ops known to be in Redis, since the term began. */
  private pushed = 0;
  private written = 0;
  private running: Promise<void> | undefined;

  constructor(private readonly lease: Lease) {}

  push(op: StateOp): void {
    if (!this.active) return;
    if (!this.ops.length) queueMicrotask(() => void this.flush());
    this.ops.push(op);
    this.pushed++;
  }

  /** Sends what is queued now; resolves once it and everything before it is in Redis, or the term ended. */
  async flush(): Promise<void> {
    const target = this.pushed;
    while (this.active && this.written < target) await this.next();
  }

  end(): void {
    this.active = false;
    this.ops = [];
  }

  /** One round trip with everything queued (joined while one is in flight). */
  private next(): Promise<void> {
    this.running ??= this.writeQueued().finally(() => (this.running = undefined));
    return this.running;
  }

  private async writeQueued(): Promise<void> {
    const ops = this.ops;
    this.ops = [];
    if (!ops.length || !this.active) return;
    const result = await this.lease.write(ops);
    if (result === 'written') this.written += ops.length;
    else if (result === 'refused') this.end();
    else if (this.active) {
      this.ops = [...ops, ...this.ops];
      await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_MS).unref());
    }
  }
}
