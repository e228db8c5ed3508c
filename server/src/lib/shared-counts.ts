import type { RateRule } from './rate-rule';

/**
 * Counts shared by every node (REDIS_URL; lib/redis-rates.ts), behind the limiters of lib/rate-limit.ts and
 * lib/login-throttle.ts. Each call is one round trip. `undefined` (or false) means the count is unknown
 * because Redis did not answer: the limiter then decides on its node-local count (fail open, never hang).
 */
export interface SharedRateCounts {
  /** Sliding log: records `count` hits at `now` if they fit, all or none; ms until they would, else 0. */
  hit(name: string, key: string, rule: RateRule, count: number, now: number): Promise<number | undefined>;
}

/** The failures in a key's window and the ms until it closes (both 0 without any). */
export interface FailureCount {
  count: number;
  resetInMs: number;
}

/** Fixed windows opened by a key's first failure (the login throttle's counters). */
export interface SharedFailureCounts {
  /** The failures of each counter `[name, key]`. */
  failures(keys: readonly (readonly [string, string])[], now: number): Promise<FailureCount[] | undefined>;
  /** One more failure for each counter `[name, key, windowMs]`; false when Redis did not take it. */
  recordFailures(counters: readonly (readonly [string, string, number])[], now: number): Promise<boolean>;
  clearFailures(name: string, key: string): Promise<void>;
}
