import type { AppNotification } from '@campus/protocol';
import type { CampusDatabase, LocalNotification } from '../../database';

export function toLocalNotification(notification: AppNotification): LocalNotification {
  return { ...notification, unread: notification.isRead ? 0 : 1 };
}

/**
 * `notification_created`: stored by id, so a second delivery (a pull after a live push, a REST load)
 * changes nothing. A read seen here first (on this device or another) is never undone by it.
 */
export async function storeNotification(db: CampusDatabase, notification: AppNotification): Promise<void> {
  const current = await db.notifications.get(notification.id);
  const isRead = notification.isRead || current?.isRead === true;
  await db.notifications.put(toLocalNotification({ ...notification, isRead }));
}

/** `notification_read` (on any device), or this device's own optimistic read. */
export async function setNotificationRead(
  db: CampusDatabase,
  notificationId: string,
  isRead: boolean,
): Promise<void> {
  await db.notifications.update(notificationId, { isRead, unread: isRead ? 0 : 1 });
}
