import type { LoginDelayRule, RateRule } from './rate-limit';
import { RateLimiter } from './rate-limit';
import { LoginThrottle, type LoginThrottleOptions } from './login-throttle';
import type { SharedFailureCounts, SharedRateCounts } from './shared-counts';

/**
 * Makes the server's rate limits (`deps.rates`). Without REDIS_URL each counts in this process; with it
 * every node shares the counts through Redis (lib/redis-rates.ts), keyed by the limit's name, so a bot
 * spreading its requests over the nodes behind a load balancer gets the limit once, not once per node.
 */
export class Rates {
  private readonly limiters = new Map<string, { rule: RateRule; limiter: RateLimiter }>();

  constructor(
    private readonly now: () => number,
    private readonly shared?: SharedRateCounts & SharedFailureCounts,
  ) {}

  /**
   * The limit called `name` (its key in Redis), one per name: the REST route and the outbox that charge one
   * budget ask for it by the same name and get the same limiter.
   */
  limiter(name: string, rule: RateRule): RateLimiter {
    const known = this.limiters.get(name);
    if (known) {
      if (known.rule.limit !== rule.limit || known.rule.windowMs !== rule.windowMs)
        throw new Error(`rate limit ${name} is already defined with another rule`);
      return known.limiter;
    }
    const limiter = new RateLimiter(rule, this.now, this.shared && { counts: this.shared, name });
    this.limiters.set(name, { rule, limiter });
    return limiter;
  }

  /** Wrong passwords per (address, IP) and the delay per address (lib/login-throttle.ts). */
  loginThrottle(
    rules: { failuresPerEmailIp: RateRule; delayPerEmail: LoginDelayRule },
    options: Omit<LoginThrottleOptions, 'shared'> = {},
  ): LoginThrottle {
    return new LoginThrottle(rules, this.now, { ...options, shared: this.shared });
  }
}
