import type { RateRule } from './rate-rule';

/**
 * The hits per key within the last window, in this process: exact, and cheap at the volumes it sees (a log
 * holds at most `limit` times per key). The node-local count behind every RateLimiter, and the one it falls
 * back to when Redis does not answer.
 */
export class SlidingLog {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(private readonly rule: RateRule) {}

  /**
   * Records `count` hits at `now`, all or none; returns the ms until they would fit when over the limit, or
   * 0 when recorded.
   */
  hit(key: string, count: number, now: number): number {
    this.sweep(now);
    const log = this.current(key, now);
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

  /** Records hits another count already allowed (the deployment-wide one), so a fallback starts from them. */
  record(key: string, count: number, now: number): void {
    this.sweep(now);
    const log = this.current(key, now);
    for (let i = 0; i < count; i++) log.push(now);
    // Never longer than the limit: older entries are the ones that would leave first anyway.
    this.hits.set(key, log.length > this.rule.limit ? log.slice(log.length - this.rule.limit) : log);
  }

  private current(key: string, now: number): number[] {
    const since = now - this.rule.windowMs;
    return (this.hits.get(key) ?? []).filter((t) => t > since);
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
