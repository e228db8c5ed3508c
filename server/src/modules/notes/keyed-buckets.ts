import { TokenBucket, type Rate } from './token-bucket';

/** Past this many keys, full buckets (keys idle long enough to have refilled) are forgotten. */
const PRUNE_AT = 10_000;

/**
 * One token bucket per key (a member, or a member in one group), for limits that must outlive a connection.
 * A forgotten key starts again with a full bucket, which is exactly what it would have had.
 */
export class KeyedBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly rate: Rate,
    private readonly now: () => number,
  ) {}

  take(key: string, amount = 1): boolean {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= PRUNE_AT) this.prune();
      bucket = new TokenBucket(this.rate, this.now);
      this.buckets.set(key, bucket);
    }
    return bucket.take(amount);
  }

  private prune(): void {
    for (const [key, bucket] of this.buckets) if (bucket.isFull) this.buckets.delete(key);
  }
}
