import { FRIEND_SERVER_MSG, SERVER_MSG } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { RateLimiter } from '../../lib/rate-limit';
import { Refusal } from '../../lib/refusal';

/** Per user: far more requests an hour than anyone sends by hand; a bot walking the directory stops here. */
export const FRIEND_REQUEST_RATE = { limit: 30, windowMs: 60 * 60_000 };
/** Blocks and unblocks per user: each one rewrites contacts on every live connection of both people. */
export const BLOCK_RATE = { limit: 60, windowMs: 60 * 60_000 };

/** One per server (tests run several in one process), shared by the REST routes and the /ws outbox. */
const blockLimiters = new WeakMap<AppDeps, RateLimiter>();
/** Friend requests: shared by the REST route and random talk's Add Friend (one budget per user). */
const requestLimiters = new WeakMap<AppDeps, RateLimiter>();

function blockLimiterOf(deps: AppDeps): RateLimiter {
  let limiter = blockLimiters.get(deps);
  if (!limiter) blockLimiters.set(deps, (limiter = new RateLimiter(BLOCK_RATE, deps.now)));
  return limiter;
}

function requestLimiterOf(deps: AppDeps): RateLimiter {
  let limiter = requestLimiters.get(deps);
  if (!limiter) requestLimiters.set(deps, (limiter = new RateLimiter(FRIEND_REQUEST_RATE, deps.now)));
  return limiter;
}

/** REST: a friend request over the limit answers 429 with Retry-After. */
export function consumeFriendRequestRate(deps: AppDeps, userId: string): void {
  requestLimiterOf(deps).consume(userId, FRIEND_SERVER_MSG.tooMany);
}

/** Elsewhere (random talk's Add Friend): the same budget, refused `rateLimited` with the same text. */
export function takeFriendRequestRate(deps: AppDeps, userId: string): void {
  if (requestLimiterOf(deps).hit(userId) > 0)
    throw new Refusal('rateLimited', 429, FRIEND_SERVER_MSG.tooMany);
}

/** REST: a block or unblock over the limit answers 429 with Retry-After. */
export function consumeBlockRate(deps: AppDeps, userId: string): void {
  blockLimiterOf(deps).consume(userId);
}

/**
 * The outbox path: the same budget, and over it a refusal stored with the mutation like any other, so a
 * resend of the same mutation gets the same answer and nothing is written.
 */
export function takeBlockRate(deps: AppDeps, userId: string): void {
  if (blockLimiterOf(deps).hit(userId) > 0) throw new Refusal('rateLimited', 429, SERVER_MSG.tooManyRequests);
}
