import type { AppDeps } from '../../lib/deps';
import type { RateLimiter, RateRule } from '../../lib/rate-limit';
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

/** One limiter per action (deps.rates, by name), shared by the REST routes and the /ws outbox. */
const limiterOf = (deps: AppDeps, action: ConfessionAction): RateLimiter =>
  deps.rates.limiter(`confessions.${action}`, CONFESSION_RATES[action]);

/** REST: over the limit answers 429 with Retry-After. */
export async function consumeConfessionRate(
  deps: AppDeps,
  action: ConfessionAction,
  userId: string,
): Promise<void> {
  await limiterOf(deps, action).consume(userId);
}

/**
 * The outbox path: over the limit is a refusal, stored with the mutation like any other, so a resend of
 * the same mutation gets the same answer and nothing is written. Runs inside the engine's commit, so it is
 * decided without waiting for Redis (`hitNow`).
 */
export function takeConfessionRate(deps: AppDeps, action: ConfessionAction, userId: string): void {
  if (limiterOf(deps, action).hitNow(userId) > 0) throw refusals.rateLimited();
}
