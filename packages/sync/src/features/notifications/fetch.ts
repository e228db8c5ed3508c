import { CONFESSION_MSG, notificationsResponseSchema, type AppNotification } from '@campus/protocol';
import { syncTables, type CampusDatabase } from '../../database';
import type { RestContext } from '../../feature-contract';
import { toLocalNotification } from './store';

/**
 * `GET /api/notifications` (the panel fetches it each time it opens), stored into Dexie. Resolves with the
 * unread count as this device sees it; rejects with the spec's 'Failed to load notifications'.
 */
export async function loadNotifications(ctx: RestContext): Promise<number> {
  const failed = new Error(CONFESSION_MSG.notificationsFailed);
  let body: unknown;
  try {
    const res = await ctx.fetchImpl(`${ctx.baseUrl}/api/notifications`, {
      headers: { Authorization: `Bearer ${ctx.token}` },
    });
    if (!res.ok) throw failed;
    body = await res.json();
  } catch {
    throw failed;
  }
  const parsed = notificationsResponseSchema.safeParse(body);
  if (!parsed.success) throw failed;
  return storeNotificationList(ctx.db, parsed.data.notifications, parsed.data.unreadCount);
}

/**
 * The notifications list through REST, merged into the cache: a notification read here whose mark is
 * still queued stays read. Returns how many of `unreadCount` are still unread as this device sees it.
 */
export async function storeNotificationList(
  db: CampusDatabase,
  notifications: readonly AppNotification[],
  unreadCount: number,
): Promise<number> {
  return db.transaction('rw', syncTables(db), async () => {
    const queued = new Set(
      (await db.outbox.toArray()).flatMap(({ frame }) =>
        frame.type === 'mark_notification_read' ? [frame.notificationId] : [],
      ),
    );
    const readHere = notifications.filter((n) => !n.isRead && queued.has(n.id)).length;
    await db.notifications.bulkPut(
      notifications.map((n) => toLocalNotification({ ...n, isRead: n.isRead || queued.has(n.id) })),
    );
    return Math.max(0, unreadCount - readHere);
  });
}
