import { SERVER_MSG } from '@campus/protocol';
import { HttpError } from './http-error';
import type { LoginDelayRule, RateRule } from './rate-limit';

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
  get(key: string): { count: number; resetInMs: number } {
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

/**
 * Wrong passwords are limited per (address, IP) and only slowed per address. A hard limit per address alone
 * let anyone lock a student out by failing from a few IPs; keyed by the pair, it stops one guesser while the
 * owner, from an IP that has not failed, still signs in. Guessing from many IPs is slowed by a delay that
 * grows with the address's failures and is capped, so no request is held for long.
 */
export class LoginThrottle {
  private readonly perPair: FailureCounter;
  private readonly perAddress: FailureCounter;

  constructor(
    private readonly rules: { failuresPerEmailIp: RateRule; delayPerEmail: LoginDelayRule },
    now: () => number,
    private readonly wait: (ms: number) => Promise<void> = sleep,
  ) {
    this.perPair = new FailureCounter(rules.failuresPerEmailIp.windowMs, now);
    this.perAddress = new FailureCounter(rules.delayPerEmail.windowMs, now);
  }

  /**
   * Before the password check: 429 when this IP failed too often for this address, else the address's
   * delay. The delay comes before the check, so its length says nothing about the password.
   */
  async before(email: string, ip: string): Promise<void> {
    const pair = this.perPair.get(pairKey(email, ip));
    if (pair.count >= this.rules.failuresPerEmailIp.limit)
      throw new HttpError(429, SERVER_MSG.tooManyRequests, { retryAfter: Math.ceil(pair.resetInMs / 1000) });
    const ms = loginDelayMs(this.rules.delayPerEmail, this.perAddress.get(email).count);
    if (ms > 0) await this.wait(ms);
  }

  failed(email: string, ip: string): void {
    this.perPair.record(pairKey(email, ip));
    this.perAddress.record(email);
  }

  /** The address's count stays: the owner signing in must not reset the delay for a guesser elsewhere. */
  succeeded(email: string, ip: string): void {
    this.perPair.clear(pairKey(email, ip));
  }
}

const pairKey = (email: string, ip: string) => `${email}\n${ip}`;
