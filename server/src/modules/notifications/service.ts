import { randomUUID } from 'node:crypto';
import type { AppNotification, NotificationType } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import type { ChangeWriter } from '../../realtime/hub';
import { schedulePush } from './push-delivery';
import {
  countUnread,
  deleteConfessionNotifications,
  insertNotification,
  isOwnNotification,
  notificationPage,
  setRead,
} from './repo';

export interface NotifyInput {
  userId: string;
  type: NotificationType;
  title: string;
  body: string;
  data: { confessionId?: string };
}

/**
 * Stores a notification for `userId` and emits `notification_created` to that user's devices. Must run
 * inside `deps.realtime.commit` (the caller's write and its notification are one transaction). A user with
 * no live connection also gets a web push, sent after the commit and never from inside it.
 */
export function notify(deps: AppDeps, tx: ChangeWriter, input: NotifyInput): AppNotification {
  const notification: AppNotification = {
    id: randomUUID(),
    type: input.type,
    title: input.title,
    body: input.body,
    createdAt: new Date(deps.now()).toISOString(),
    isRead: false,
    data: input.data.confessionId === undefined ? {} : { confessionId: input.data.confessionId },
  };
  insertNotification(deps.sqlite, input.userId, notification);
  tx.emit({ type: 'notification_created', notification }, [`u:${input.userId}`]);
  if (!deps.realtime.isOnline(input.userId)) schedulePush(deps, input.userId, notification);
  return notification;
}

export type MarkReadOutcome = 'notFound' | 'read';

/**
 * Marks one of the user's notifications read. The first time, `notification_read` goes to the user's
 * devices so the others lower their count too; again is a no-op. Another user's id is 'notFound'.
 */
export function markNotificationRead(deps: AppDeps, userId: string, notificationId: string): MarkReadOutcome {
  return deps.realtime.commit((tx): MarkReadOutcome => {
    if (!isOwnNotification(deps.sqlite, userId, notificationId)) return 'notFound';
    if (setRead(deps.sqlite, userId, notificationId))
      tx.emit({ type: 'notification_read', notificationId }, [`u:${userId}`]);
    return 'read';
  });
}

export function unreadCount(deps: AppDeps, userId: string): number {
  return countUnread(deps.sqlite, userId);
}

export function listNotifications(deps: AppDeps, userId: string, page: number, limit: number) {
  const notifications = notificationPage(deps.sqlite, userId, limit, (page - 1) * limit);
  return { notifications, unreadCount: unreadCount(deps, userId) };
}

/**
 * A confession was deleted: its notifications go too (they would lead nowhere), and their owners' devices
 * drop them with `notifications_deleted`. Inside the deletion's commit.
 */
export function forgetConfession(deps: AppDeps, tx: ChangeWriter, confessionId: string): void {
  for (const [userId, notificationIds] of deleteConfessionNotifications(deps.sqlite, confessionId)) {
    tx.emit({ type: 'notifications_deleted', notificationIds }, [`u:${userId}`]);
  }
}
