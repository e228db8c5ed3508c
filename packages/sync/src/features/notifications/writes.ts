import { syncTables } from '../../database';
import type { Writer } from '../../writer';
import { markNotificationRead } from './mutations';
import { setNotificationRead } from './store';

/** Marks a notification read here at once; queued for the server unless it was read already. */
export async function writeNotificationRead(w: Writer, notificationId: string): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const row = await w.db.notifications.get(notificationId);
    // Already read here: the server knows, or a queued mark will tell it.
    if (row?.isRead) return;
    if (row) await setNotificationRead(w.db, notificationId, true);
    const undo = row ? { kind: 'notificationRead' as const, notificationId, wasRead: false } : undefined;
    await markNotificationRead.enqueue(w, { type: 'mark_notification_read', notificationId }, undo);
  });
}
