/** A token bucket per key: `perSecond` refill, at most `burst` saved up. */
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
