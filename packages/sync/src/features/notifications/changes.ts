import type { ChangeAppliers } from '../../feature-contract';
import { touch } from '../../touched';
import { setNotificationRead, storeNotification } from './store';

/**
 * How notification changes land in the cache. A read or a deletion marks its rows (touched.ts), so a REST
 * load that was under way does not put back what the change made (fetch.ts).
 */
export const notificationChanges = {
  notification_created: async ({ db }, change) => {
    await storeNotification(db, change.notification);
  },
  notification_read: async ({ db }, change) => {
    await setNotificationRead(db, change.notificationId, true);
    await touch(db, 'notifications', [change.notificationId], change.seq);
  },
  notifications_deleted: async ({ db }, change) => {
    await db.notifications.bulkDelete(change.notificationIds);
    await touch(db, 'notifications', change.notificationIds, change.seq);
  },
} satisfies Partial<ChangeAppliers>;
