/** A rate as a token bucket: up to `burst` at once, refilled continuously at `perSecond`. */
export interface Rate {
  burst: number;
  perSecond: number;
}

/**
 * One bucket per connection and resource. Refilled lazily from the clock at each take, so an idle
 * connection costs no timer.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: Rate,
    private readonly now: () => number,
  ) {
    this.tokens = rate.burst;
    this.last = now();
  }

  /** Takes `amount` tokens if there are that many; false (and nothing taken) if not. */
  take(amount = 1): boolean {
    this.refill();
    if (this.tokens < amount) return false;
    this.tokens -= amount;
    return true;
  }

  /** Refilled to its burst: the same as a new bucket, so it can be forgotten. */
  get isFull(): boolean {
    this.refill();
    return this.tokens >= this.rate.burst;
  }

  private refill(): void {
    const now = this.now();
    const refill = ((now - this.last) / 1000) * this.rate.perSecond;
    this.tokens = Math.min(this.rate.burst, this.tokens + refill);
    this.last = now;
  }
}
