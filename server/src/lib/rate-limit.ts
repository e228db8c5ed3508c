import { HttpError } from './http-error';
import { SERVER_MSG } from '@campus/protocol';

export interface RateRule {
  /** How many hits a key may make within the window. */
  limit: number;
  windowMs: number;
}

/**
 * Sliding-log limiter in memory: exact, and cheap at the volumes of auth routes. One server process holds
 * the counts; a multi-instance deployment would move them to Redis alongside realtime fan-out.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly rule: RateRule,
    private readonly now: () => number,
  ) {}

  /**
   * Records `count` hits for the key at once, all or none; returns the ms until they would fit when over the
   * limit, or 0 when allowed.
   */
  hit(key: string, count = 1): number {
    const now = this.now();
    this.sweep(now);
    const since = now - this.rule.windowMs;
    const log = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (log.length + count > this.rule.limit) {
      this.hits.set(key, log);
      // More than the whole window allows can never fit: wait a full window, as for an empty log.
      const freeing = log[log.length + count - this.rule.limit - 1];
      return (freeing ?? now) + this.rule.windowMs - now;
    }
    for (let i = 0; i < count; i++) log.push(now);
    this.hits.set(key, log);
    return 0;
  }

  /** Throws 429 when the key's `count` hits would pass its limit. */
  consume(key: string, message: string = SERVER_MSG.tooManyRequests, count = 1): void {
    const waitMs = this.hit(key, count);
    if (waitMs > 0) throw new HttpError(429, message, { retryAfter: Math.ceil(waitMs / 1000) });
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.rule.windowMs) return;
    this.lastSweep = now;
    const since = now - this.rule.windowMs;
    for (const [key, log] of this.hits) {
      if (log.every((t) => t <= since)) this.hits.delete(key);
    }
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
