/**
 * A token bucket per key: `perSecond` refill, at most `burst` saved up.
 *
 * Per node even with REDIS_URL, unlike the hourly budgets (deps.rates): it is flood control for this node's
 * event loop and write lock, checked on every frame (each mutation, each keystroke's typing), where a
 * Redis round trip would cost more than the work it guards and would make frame handling wait. A user with
 * sockets on several nodes does get a bucket on each, but what that could multiply is capped elsewhere,
 * deployment-wide: the hourly budgets go through Redis (lib/rate-limit.ts) and the direct-message limits are
 * rows in the shared database.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {}

  take(key: string): boolean {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { tokens: this.burst, at: now }));
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** A user with no connection left needs no bucket (a full one is what they would get anyway). */
  forget(key: string): void {
    this.buckets.delete(key);
  }
}
