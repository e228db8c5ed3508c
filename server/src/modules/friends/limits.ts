import { FRIEND_SERVER_MSG, SERVER_MSG } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import type { RateLimiter } from '../../lib/rate-limit';
import { Refusal } from '../../lib/refusal';

/** Per user: far more requests an hour than anyone sends by hand; a bot walking the directory stops here. */
export const FRIEND_REQUEST_RATE = { limit: 30, windowMs: 60 * 60_000 };
/** Blocks and unblocks per user: each one rewrites contacts on every live connection of both people. */
export const BLOCK_RATE = { limit: 60, windowMs: 60 * 60_000 };

/** Shared by the REST routes and the /ws outbox: one limiter per name (deps.rates). */
const blockLimiterOf = (deps: AppDeps): RateLimiter => deps.rates.limiter('friends.block', BLOCK_RATE);
/** Friend requests: shared by the REST route and random talk's Add Friend (one budget per user). */
const requestLimiterOf = (deps: AppDeps): RateLimiter =>
  deps.rates.limiter('friends.request', FRIEND_REQUEST_RATE);

/** REST: a friend request over the limit answers 429 with Retry-After. */
export async function consumeFriendRequestRate(deps: AppDeps, userId: string): Promise<void> {
  await requestLimiterOf(deps).consume(userId, FRIEND_SERVER_MSG.tooMany);
}

/**
 * Elsewhere (random talk's Add Friend, inside its commit): the same budget, refused `rateLimited` with the
 * same text. Decided without waiting for Redis (`hitNow`): a commit awaits nothing but its transaction.
 */
export function takeFriendRequestRate(deps: AppDeps, userId: string): void {
  if (requestLimiterOf(deps).hitNow(userId) > 0)
    throw new Refusal('rateLimited', 429, FRIEND_SERVER_MSG.tooMany);
}

/** REST: a block or unblock over the limit answers 429 with Retry-After. */
export async function consumeBlockRate(deps: AppDeps, userId: string): Promise<void> {
  await blockLimiterOf(deps).consume(userId);
}

/**
 * The outbox path: the same budget, and over it a refusal stored with the mutation like any other, so a
 * resend of the same mutation gets the same answer and nothing is written. Runs inside the engine's commit,
 * so it is decided without waiting for Redis (`hitNow`).
 */
export function takeBlockRate(deps: AppDeps, userId: string): void {
  if (blockLimiterOf(deps).hitNow(userId) > 0)
    throw new Refusal('rateLimited', 429, SERVER_MSG.tooManyRequests);
}
