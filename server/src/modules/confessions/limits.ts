import type { AppDeps } from '../../lib/deps';
import { RateLimiter, type RateRule } from '../../lib/rate-limit';
import { refusals } from './errors';

const MINUTE = 60_000;
/** Per user: generous for a person, too few to flood the feed or someone's notifications. */
export const CONFESSION_RATES = {
  post: { limit: 20, windowMs: 60 * MINUTE },
  comment: { limit: 30, windowMs: 5 * MINUTE },
  react: { limit: 120, windowMs: MINUTE },
  feed: { limit: 240, windowMs: MINUTE },
  nicknameCheck: { limit: 60, windowMs: MINUTE },
  // A name that signed something stays its user's after a rename: few renames a day keep anyone from
  // hoarding names that way.
  nicknameSet: { limit: 5, windowMs: 24 * 60 * MINUTE },
} satisfies Record<string, RateRule>;

export type ConfessionAction = keyof typeof CONFESSION_RATES;
type Limiters = Record<ConfessionAction, RateLimiter>;

/** One set per server (tests run several in one process), shared by the REST routes and the /ws outbox. */
const perServer = new WeakMap<AppDeps, Limiters>();

function limitersOf(deps: AppDeps): Limiters {
  let limiters = perServer.get(deps);
  if (!limiters) {
    const make = (rule: RateRule) => new RateLimiter(rule, deps.now);
    limiters = {
      post: make(CONFESSION_RATES.post),
      comment: make(CONFESSION_RATES.comment),
      react: make(CONFESSION_RATES.react),
      feed: make(CONFESSION_RATES.feed),
      nicknameCheck: make(CONFESSION_RATES.nicknameCheck),
      nicknameSet: make(CONFESSION_RATES.nicknameSet),
    };
    perServer.set(deps, limiters);
  }
  return limiters;
}

/** REST: over the limit answers 429 with Retry-After. */
export function consumeConfessionRate(deps: AppDeps, action: ConfessionAction, userId: string): void {
  limitersOf(deps)[action].consume(userId);
}

/**
 * The outbox path: over the limit is a refusal, stored with the mutation like any other, so a resend of
 * the same mutation gets the same answer and nothing is written.
 */
export function takeConfessionRate(deps: AppDeps, action: ConfessionAction, userId: string): void {
  if (limitersOf(deps)[action].hit(userId) > 0) throw refusals.rateLimited();
}
