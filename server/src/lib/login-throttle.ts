import { SERVER_MSG } from '@campus/protocol';
import { HttpError } from './http-error';
import type { LoginDelayRule, RateRule } from './rate-limit';
import type { FailureCount, SharedFailureCounts } from './shared-counts';

/**
 * Failures per key in a fixed window opened by the key's first failure: one number and one time per key,
 * so an attack from many addresses cannot grow memory the way a log of timestamps would.
 */
class FailureCounter {
  private readonly entries = new Map<string, { count: number; until: number }>();
  private lastSweep = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** The failures in the key's current window, and the ms until that window closes. */
  get(key: string): FailureCount {
    const now = this.now();
    const entry = this.entries.get(key);
    if (!entry || entry.until <= now) return { count: 0, resetInMs: 0 };
    return { count: entry.count, resetInMs: entry.until - now };
  }

  record(key: string): void {
    const now = this.now();
    this.sweep(now);
    const entry = this.entries.get(key);
    if (entry && entry.until > now) entry.count += 1;
    else this.entries.set(key, { count: 1, until: now + this.windowMs });
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
  }
}

/** The wait before checking a password, after `failures` failures for the address: 0, then doubling, capped. */
export function loginDelayMs(rule: LoginDelayRule, failures: number): number {
  if (failures < rule.afterFailures) return 0;
  return Math.min(rule.maxMs, rule.baseMs * 2 ** (failures - rule.afterFailures));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How many logins for one address may be in line (the one being checked included), unless the rule says. */
export const LOGIN_LINE_PER_EMAIL = 5;

/** The logins for one address: `tail` settles when the last one in line is done. */
interface Line {
  tail: Promise<void>;
  size: number;
}

/** What an attempt decides on: this IP's failures for the address, and the address's. */
interface Failures {
  pair: FailureCount;
  address: FailureCount;
}

/** The shared counters' names (lib/redis-rates.ts keys them by a digest, never by address or IP). */
const PAIR = 'login-pair';
const ADDRESS = 'login-address';

export interface LoginThrottleOptions {
  wait?: (ms: number) => Promise<void>;
  /** REDIS_URL: the failures every node counts; this node's own when Redis does not answer. */
  shared?: SharedFailureCounts;
}

/**
 * Wrong passwords are limited per (address, IP) and only slowed per address. A hard limit per address alone
 * let anyone lock a student out by failing from a few IPs; keyed by the pair, it stops one guesser while the
 * owner, from an IP that has not failed, still signs in. Guessing from many IPs is slowed by a delay that
 * grows with the address's failures and is capped, so no request is held for long.
 *
 * The checks for one address from IPs that have failed for it run one after another, each after its delay:
 * a delay that ran side by side would let 1,000 parallel guesses all wait 8 s and then all be checked. Only
 * a few may wait in line; the rest are answered 429 at once, so a flood holds no sockets and the delay really
 * bounds the guess rate. An IP with no failures for the address never joins that line (a guesser keeping it
 * full would otherwise lock the owner out again): it pays the delay and is checked. A guesser gets one such
 * try per fresh IP, each IP then queues like the rest: while that first try runs, the IP's other tries for
 * the address join the line and wait for its outcome too (all read a count of 0 before it failed, so side by
 * side they would all be checked, past the pair's limit).
 *
 * With REDIS_URL the failure counts are every node's (one read per attempt, one write per outcome), so the
 * pair's limit and the address's delay hold across the deployment. The line is each node's: holding a
 * request in a line across nodes would need a distributed lock on the login hot path, and a guesser
 * spreading over N nodes still pays the shared delay on each and its IPs' shared limits.
 */
export class LoginThrottle {
  private readonly perPair: FailureCounter;
  private readonly perAddress: FailureCounter;
  private readonly lines = new Map<string, Line>();
  /** A fresh (address, IP)'s first try, checked outside the line: settles when it is done. */
  private readonly firstTries = new Map<string, Promise<unknown>>();
  private readonly wait: (ms: number) => Promise<void>;
  private readonly shared: SharedFailureCounts | undefined;

  constructor(
    private readonly rules: { failuresPerEmailIp: RateRule; delayPerEmail: LoginDelayRule },
    private readonly now: () => number,
    options: LoginThrottleOptions = {},
  ) {
    this.perPair = new FailureCounter(rules.failuresPerEmailIp.windowMs, now);
    this.perAddress = new FailureCounter(rules.delayPerEmail.windowMs, now);
    this.wait = options.wait ?? sleep;
    this.shared = options.shared;
  }

  /**
   * Runs the password `check` in the address's line: 429 when this IP failed too often for this address or
   * the line is full, else the address's delay and then the check. The delay comes before the check, so its
   * length says nothing about the password. A rejection that `isFailure` accepts counts as a wrong password.
   */
  async attempt<T>(
    email: string,
    ip: string,
    check: () => Promise<T>,
    isFailure: (error: unknown) => boolean,
  ): Promise<T> {
    // Without Redis nothing is awaited before the line is joined, as before (no turn given away).
    const failures = this.shared ? await this.sharedFailures(email, ip) : this.localFailures(email, ip);
    refuseBlockedPair(failures.pair, this.rules.failuresPerEmailIp);
    const pair = pairKey(email, ip);
    if (failures.pair.count === 0 && !this.firstTries.has(pair)) {
      const first = this.delayThenCheck(email, ip, failures.address, check, isFailure);
      const settled = first.then(
        () => undefined,
        () => undefined,
      );
      this.firstTries.set(pair, settled);
      void settled.then(() => this.firstTries.delete(pair));
      return first;
    }
    const line = this.lines.get(email) ?? { tail: Promise.resolve(), size: 0 };
    const room = this.rules.delayPerEmail.maxInLine ?? LOGIN_LINE_PER_EMAIL;
    if (line.size >= room) throw this.lineFull(failures.address, line.size);
    line.size += 1;
    this.lines.set(email, line);
    const before = line.tail;
    let done!: () => void;
    line.tail = new Promise<void>((resolve) => (done = resolve));
    try {
      await before;
      // This IP's first try, outside the line, may still run: its outcome counts before this one.
      await this.firstTries.get(pair);
      // The guesses ahead in line may have used up this IP's failures for the address.
      const current = this.shared ? await this.sharedFailures(email, ip) : this.localFailures(email, ip);
      refuseBlockedPair(current.pair, this.rules.failuresPerEmailIp);
      return await this.delayThenCheck(email, ip, current.address, check, isFailure);
    } finally {
      line.size -= 1;
      if (line.size === 0) this.lines.delete(email);
      done();
    }
  }

  /** The address's delay, then the check; a wrong password counts for the pair and the address. */
  private async delayThenCheck<T>(
    email: string,
    ip: string,
    address: FailureCount,
    check: () => Promise<T>,
    isFailure: (error: unknown) => boolean,
  ): Promise<T> {
    const ms = loginDelayMs(this.rules.delayPerEmail, address.count);
    if (ms > 0) await this.wait(ms);
    const result = await check().catch(async (error: unknown) => {
      if (isFailure(error)) await this.failed(email, ip);
      throw error;
    });
    // The address's count stays: the owner signing in must not reset the delay for a guesser elsewhere.
    this.perPair.clear(pairKey(email, ip));
    await this.shared?.clearFailures(PAIR, pairKey(email, ip));
    return result;
  }

  private localFailures(email: string, ip: string): Failures {
    return { pair: this.perPair.get(pairKey(email, ip)), address: this.perAddress.get(email) };
  }

  /** One round trip; this node's own counts when Redis does not answer. */
  private async sharedFailures(email: string, ip: string): Promise<Failures> {
    const counts = await this.shared?.failures(
      [
        [PAIR, pairKey(email, ip)],
        [ADDRESS, email],
      ],
      this.now(),
    );
    const [pair, address] = counts ?? [];
    return pair && address ? { pair, address } : this.localFailures(email, ip);
  }

  /** Retry when the ones in line have had their turn: each waits about the address's current delay. */
  private lineFull(address: FailureCount, size: number): HttpError {
    const delay = loginDelayMs(this.rules.delayPerEmail, address.count);
    const retryAfter = Math.max(1, Math.ceil((size * delay) / 1000));
    return new HttpError(429, SERVER_MSG.tooManyRequests, { retryAfter });
  }

  /** Counted here too, so a node falling back to its own counts does not start from nothing. */
  private async failed(email: string, ip: string): Promise<void> {
    this.perPair.record(pairKey(email, ip));
    this.perAddress.record(email);
    await this.shared?.recordFailures(
      [
        [PAIR, pairKey(email, ip), this.rules.failuresPerEmailIp.windowMs],
        [ADDRESS, email, this.rules.delayPerEmail.windowMs],
      ],
      this.now(),
    );
  }
}

function refuseBlockedPair(pair: FailureCount, rule: RateRule): void {
  if (pair.count >= rule.limit)
    throw new HttpError(429, SERVER_MSG.tooManyRequests, { retryAfter: Math.ceil(pair.resetInMs / 1000) });
}

const pairKey = (email: string, ip: string) => `${email}\n${ip}`;
