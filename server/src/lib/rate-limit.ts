import { HttpError } from './http-error';
import { SERVER_MSG } from '@campus/protocol';
import type { RateRule } from './rate-rule';
import type { SharedRateCounts } from './shared-counts';
import { SlidingLog } from './sliding-log';

export type { RateRule } from './rate-rule';

/**
 * A sliding-log limit per key: exact, and cheap at the volumes of the routes it guards. Without REDIS_URL
 * one process holds the counts (lib/sliding-log.ts). With it, several nodes stand behind a load balancer
 * and a count per node would let a bot have N times the limit by spreading its requests: `hit` and
 * `consume` then ask the count every node shares (`shared`, one round trip), and use this node's own only
 * when Redis does not answer. The node's log keeps what the shared count allowed here, so such a fallback
 * does not start from nothing.
 */
export class RateLimiter {
  private readonly local: SlidingLog;
  /** Shared only: keys the shared count refused a single hit, until when; refused again without asking. */
  private readonly refused = new Map<string, number>();
  private lastSweep = 0;

  constructor(
    private readonly rule: RateRule,
    private readonly now: () => number,
    private readonly shared?: { counts: SharedRateCounts; name: string },
  ) {
    this.local = new SlidingLog(rule);
  }

  /**
   * Records `count` hits for the key at once, all or none; resolves with the ms until they would fit when
   * over the limit, or 0 when allowed.
   */
  async hit(key: string, count = 1): Promise<number> {
    const now = this.now();
    if (!this.shared) return this.local.hit(key, count, now);
    // A refused log only fills further (other nodes add, times leave on schedule): no need to ask again.
    const known = count === 1 ? this.refusedFor(key, now) : 0;
    if (known > 0) return known;
    const waitMs = await this.shared.counts.hit(this.shared.name, key, this.rule, count, now);
    // Redis did not answer: this node's own count decides.
    if (waitMs === undefined) return this.local.hit(key, count, now);
    if (waitMs === 0) this.local.record(key, count, now);
    else if (count === 1) this.remember(key, now + waitMs);
    return waitMs;
  }

  /**
   * One hit, decided now without waiting for Redis: for checks inside a database commit (an apply awaits
   * nothing but its transaction, realtime/transaction.ts) or ahead of work that must not yield first. Decided
   * on this node's count and what the shared count last refused for the key; the shared count is told in
   * the background and its refusal holds from the next hit on. So across nodes a key may pass the limit by
   * the hits that land on a node before it hears of the refusal (about one per node), never by N times.
   */
  hitNow(key: string): number {
    const now = this.now();
    const known = this.shared ? this.refusedFor(key, now) : 0;
    if (known > 0) return known;
    const waitMs = this.local.hit(key, 1, now);
    const shared = this.shared;
    if (waitMs > 0 || !shared) return waitMs;
    void shared.counts.hit(shared.name, key, this.rule, 1, now).then((sharedWait) => {
      if (sharedWait) this.remember(key, now + sharedWait);
    });
    return 0;
  }

  /** Throws 429 when the key's `count` hits would pass its limit. */
  async consume(key: string, message: string = SERVER_MSG.tooManyRequests, count = 1): Promise<void> {
    const waitMs = await this.hit(key, count);
    if (waitMs > 0) throw new HttpError(429, message, { retryAfter: Math.ceil(waitMs / 1000) });
  }

  private refusedFor(key: string, now: number): number {
    const until = this.refused.get(key);
    if (until === undefined) return 0;
    if (until > now) return until - now;
    this.refused.delete(key);
    return 0;
  }

  private remember(key: string, until: number): void {
    const now = this.now();
    if (now - this.lastSweep >= this.rule.windowMs) {
      this.lastSweep = now;
      for (const [k, t] of this.refused) if (t <= now) this.refused.delete(k);
    }
    this.refused.set(key, until);
  }
}

/** A wait before each login for an address, growing with its recent failures (lib/login-throttle.ts). */
export interface LoginDelayRule {
  /** Failures within the window before any delay: a student mistyping a few times never waits. */
  afterFailures: number;
  /** The first delay; each further failure doubles it. */
  baseMs: number;
  /** The cap, so a request is never held for long. */
  maxMs: number;
  windowMs: number;
  /**
   * Logins for one address in line at once, the one being checked included (default 5): the checks run one
   * at a time, and more would only hold sockets; the rest are answered 429 with a Retry-After.
   */
  maxInLine?: number;
}

/** Limits for the auth routes, per client IP and per e-mail address. */
export interface AuthRateRules {
  loginPerIp: RateRule;
  /** Wrong passwords for one address from one IP; never per address alone, which would be a lockout. */
  loginFailuresPerEmailIp: RateRule;
  loginDelayPerEmail: LoginDelayRule;
  signupPerIp: RateRule;
  signupPerEmail: RateRule;
  verifyPerIp: RateRule;
  resetRequestPerIp: RateRule;
  resetRequestPerEmail: RateRule;
  resetPerIp: RateRule;
}

const MINUTE = 60_000;
export const DEFAULT_AUTH_RATE_RULES: AuthRateRules = {
  loginPerIp: { limit: 30, windowMs: 15 * MINUTE },
  loginFailuresPerEmailIp: { limit: 10, windowMs: 15 * MINUTE },
  // 0.5, 1, 2, 4, then 8 s from the fifth failure on.
  loginDelayPerEmail: { afterFailures: 5, baseMs: 500, maxMs: 8000, windowMs: 15 * MINUTE },
  signupPerIp: { limit: 10, windowMs: 60 * MINUTE },
  signupPerEmail: { limit: 5, windowMs: 60 * MINUTE },
  verifyPerIp: { limit: 30, windowMs: 15 * MINUTE },
  resetRequestPerIp: { limit: 10, windowMs: 60 * MINUTE },
  resetRequestPerEmail: { limit: 5, windowMs: 60 * MINUTE },
  resetPerIp: { limit: 30, windowMs: 15 * MINUTE },
};
