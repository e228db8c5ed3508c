import { CONFESSION_MSG, notificationsResponseSchema, type AppNotification } from '@campus/protocol';
import { syncTables, type CampusDatabase } from '../../database';
import type { RestContext } from '../../feature-contract';
import { readCursor } from '../../meta';
import { touchedAfter } from '../../touched';
import { toLocalNotification } from './store';

/**
 * `GET /api/notifications` (the panel fetches it each time it opens), stored into Dexie. Resolves with the
 * unread count as this device sees it; rejects with the spec's 'Failed to load notifications'.
 */
export async function loadNotifications(ctx: RestContext): Promise<number> {
  const failed = new Error(CONFESSION_MSG.notificationsFailed);
  // Changes applied after this cursor may be newer than the answer: what they touched stays as cached.
  const since = await readCursor(ctx.db);
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
  return storeNotificationList(ctx.db, parsed.data.notifications, parsed.data.unreadCount, since);
}

/**
 * The notifications list through REST, merged into the cache: a notification read here whose mark is
 * still queued stays read, one read before stays read, and one a change read or deleted after `since` (the
 * cursor before the request) keeps its cached state, present or absent. Returns how many of `unreadCount`
 * are still unread as this device sees it.
 */
export async function storeNotificationList(
  db: CampusDatabase,
  notifications: readonly AppNotification[],
  unreadCount: number,
  since: number,
): Promise<number> {
  return db.transaction('rw', syncTables(db), async () => {
    const queued = new Set(
      (await db.outbox.toArray()).flatMap(({ frame }) =>
        frame.type === 'mark_notification_read' ? [frame.notificationId] : [],
      ),
    );
    const touched = await touchedAfter(db, 'notifications', since);
    const cached = new Map(
      (await db.notifications.bulkGet(notifications.map((n) => n.id))).flatMap((row) =>
        row ? [[row.id, row] as const] : [],
      ),
    );
    const stored = notifications.flatMap((n) => {
      if (touched(n.id)) {
        const row = cached.get(n.id);
        return row ? [{ ...n, isRead: row.isRead }] : [];
      }
      return [{ ...n, isRead: n.isRead || queued.has(n.id) || cached.get(n.id)?.isRead === true }];
    });
    await db.notifications.bulkPut(stored.map(toLocalNotification));
    // The server counted as unread some that this device has read (or seen deleted) since.
    const isUnread = new Map(stored.map((n) => [n.id, !n.isRead]));
    const goneHere = notifications.filter((n) => !n.isRead && !isUnread.get(n.id)).length;
    return Math.max(0, unreadCount - goneHere);
  });
}
