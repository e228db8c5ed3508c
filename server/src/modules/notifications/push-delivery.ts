import { notificationUrl, type AppNotification, type PushPayload } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { pushQueueOf } from './push-queue';
import { deleteSubscription, notificationExists, subscriptionsOf } from './repo';

/**
 * Sends the notification to every push subscription of the user, after the current transaction: a push
 * must never hold the database, and a notification whose transaction rolled back is never pushed (its
 * row is looked for first). Called from the commit's `tx.afterCommit` (writes.ts), so the row is committed
 * on PostgreSQL too; `setImmediate` keeps the push off the committer's turn. Subscriptions the push service calls gone (404/410) are deleted. Pushes go through the
 * server's bounded queue (push-queue.ts), which may drop one; the panel still lists it.
 */
export function schedulePush(deps: AppDeps, userId: string, notification: AppNotification): void {
  setImmediate(() => {
    const queued = pushQueueOf(deps).offer(userId, () =>
      deliver(deps, userId, notification).catch((error: unknown) => {
        deps.log.error({ err: error, notificationId: notification.id }, 'web push delivery crashed');
      }),
    );
    if (!queued) deps.log.warn({ notificationId: notification.id }, 'web push dropped (limit)');
  });
}

async function deliver(deps: AppDeps, userId: string, notification: AppNotification): Promise<void> {
  // The server may have stopped since (a test's, or a shutdown): nothing to read any more.
  if (!deps.database.open || !(await notificationExists(deps.db, notification.id))) return;
  const targets = await subscriptionsOf(deps.db, userId);
  if (!targets.length) return;
  const payload: PushPayload = {
    title: notification.title,
    body: notification.body,
    url: notificationUrl(notification),
    type: notification.type,
    notificationId: notification.id,
  };
  const urgency = notification.type === 'friend_request' ? 'high' : 'normal';
  await Promise.all(
    targets.map(async (target) => {
      const keys = { p256dh: target.p256dh, auth: target.auth };
      const result = await deps.push.send({ endpoint: target.endpoint, keys }, payload, { urgency });
      if (result === 'gone' && deps.database.open)
        await deps.transactor.commit((tx) => deleteSubscription(tx, target));
    }),
  );
}
