import { vapidPublicKeyResponseSchema } from '@campus/protocol';
import type { ApiClient, ResponseSchema } from '../../lib/api';
import { urlBase64ToUint8Array } from './url-base64';

/** The register route's answer is not shown (spec section 7). */
const ignoredBody: ResponseSchema<void> = { parse: () => undefined };

function sameKey(current: ArrayBuffer | null | undefined, wanted: Uint8Array): boolean {
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((byte, index) => byte === wanted[index]);
}

/**
 * Subscribes this browser to web push with the server's VAPID key and registers the subscription with
 * `POST /api/users/register-push-token`. A subscription made for another key (the server's keys were
 * renewed) is replaced, since pushes signed with the new key would be refused for it.
 */
export async function subscribeToPush(
  api: ApiClient,
  registration: ServiceWorkerRegistration,
): Promise<void> {
  const { publicKey } = await api.get('/api/push/vapid-public-key', vapidPublicKeyResponseSchema);
  const applicationServerKey = urlBase64ToUint8Array(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  await api.post('/api/users/register-push-token', subscription.toJSON(), ignoredBody);
}
