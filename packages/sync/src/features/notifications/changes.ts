import type { ChangeAppliers } from '../../feature-contract';
import { setNotificationRead, storeNotification } from './store';

/** How notification changes land in the cache. */
export const notificationChanges = {
  notification_created: async ({ db }, change) => {
    await storeNotification(db, change.notification);
  },
  notification_read: async ({ db }, change) => {
    await setNotificationRead(db, change.notificationId, true);
  },
  notifications_deleted: async ({ db }, change) => {
    await db.notifications.bulkDelete(change.notificationIds);
  },
} satisfies Partial<ChangeAppliers>;
