import type { z } from 'zod';
import type { pushSubscriptionSchema } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { HttpError } from '../../lib/http-error';
import { upsertSubscription } from './repo';

export type PushSubscriptionBody = z.infer<typeof pushSubscriptionSchema>;

export const PUSH_SUBSCRIPTION_INVALID = 'Invalid push subscription.';

/** Browsers send URL-safe base64 (sometimes padded); the keys must be a P-256 point and 16 secret bytes. */
function decodeKey(value: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return null;
  return Buffer.from(value.replace(/=+$/, ''), 'base64url');
}

function validKeys(keys: PushSubscriptionBody['keys']): boolean {
  const p256dh = decodeKey(keys.p256dh);
  const auth = decodeKey(keys.auth);
  return p256dh?.length === 65 && p256dh[0] === 0x04 && auth?.length === 16;
}

/**
 * Stores (or moves to this user) a browser's push subscription. A user keeps at most
 * MAX_PUSH_SUBSCRIPTIONS (repo.ts); the oldest go. Keys that could never be encrypted to are refused here rather
 * than failing at every push.
 */
export async function savePushSubscription(
  deps: AppDeps,
  userId: string,
  body: PushSubscriptionBody,
): Promise<void> {
  if (!deps.push.acceptsEndpoint(body.endpoint) || !validKeys(body.keys))
    throw new HttpError(400, PUSH_SUBSCRIPTION_INVALID);
  const { endpoint, keys } = body;
  const sub = { endpoint, p256dh: keys.p256dh, auth: keys.auth };
  await deps.transactor.commit((tx) => upsertSubscription(tx, userId, sub, new Date(tx.now).toISOString()));
}
