import { randomUUID } from 'node:crypto';
import type { AppNotification, NotificationType } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { audience } from '../../realtime/audiences';
import type { Tx } from '../../realtime/transaction';
import { schedulePush } from './push-delivery';
import { deleteConfessionNotifications, insertNotification, isOwnNotification, setRead } from './repo';

export interface NotifyInput {
  userId: string;
  type: NotificationType;
  title: string;
  body: string;
  data: { confessionId?: string };
}

/**
 * Stores a notification for `userId` and emits `notification_created` to that user's devices, in the
 * caller's transaction (the caller's write and its notification are one). A user with no live connection
 * also gets a web push, queued after the commit and never from inside it (push-delivery.ts).
 */
export async function notify(tx: Tx, deps: AppDeps, input: NotifyInput): Promise<AppNotification> {
  const notification: AppNotification = {
    id: randomUUID(),
    type: input.type,
    title: input.title,
    body: input.body,
    createdAt: new Date(tx.now).toISOString(),
    isRead: false,
    data: input.data.confessionId === undefined ? {} : { confessionId: input.data.confessionId },
  };
  await insertNotification(tx, input.userId, notification);
  tx.emit({ type: 'notification_created', notification }, [audience.user(input.userId)]);
  if (!deps.realtime.isOnline(input.userId))
    tx.afterCommit(() => schedulePush(deps, input.userId, notification));
  return notification;
}

export type MarkReadOutcome = 'notFound' | 'read';

/**
 * Marks one of the user's notifications read. The first time, `notification_read` goes to the user's
 * devices so the others lower their count too; again is a no-op. Another user's id is 'notFound'.
 */
export async function markNotificationRead(
  tx: Tx,
  userId: string,
  notificationId: string,
): Promise<MarkReadOutcome> {
  if (!(await isOwnNotification(tx, userId, notificationId))) return 'notFound';
  if (await setRead(tx, userId, notificationId))
    tx.emit({ type: 'notification_read', notificationId }, [audience.user(userId)]);
  return 'read';
}

/**
 * A confession was deleted: its notifications go too (they would lead nowhere), and their owners' devices
 * drop them with `notifications_deleted`. In the deletion's transaction.
 */
export async function forgetConfession(tx: Tx, confessionId: string): Promise<void> {
  for (const [userId, notificationIds] of await deleteConfessionNotifications(tx, confessionId)) {
    tx.emit({ type: 'notifications_deleted', notificationIds }, [audience.user(userId)]);
  }
}
