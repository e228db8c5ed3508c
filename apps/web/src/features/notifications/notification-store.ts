import { NOTIFICATIONS_PAGE_SIZE, notificationSchema, type AppNotification } from '@campus/protocol';
import type { CampusDatabase } from '@campus/sync';

/**
 * A cached row: the wire shape plus `unread` (1 when not read), the indexable twin of isRead that the sync
 * layer keeps too (IndexedDB cannot index booleans).
 */
type StoredNotification = AppNotification & { unread: 0 | 1 };

function toStored(notification: AppNotification): StoredNotification {
  return { ...notification, unread: notification.isRead ? 0 : 1 };
}

const newestFirst = (a: AppNotification, b: AppNotification) => b.createdAt.localeCompare(a.createdAt);

/** Every cached notification, newest first; rows that do not match the protocol are skipped. */
export async function readCachedNotifications(db: CampusDatabase): Promise<AppNotification[]> {
  const rows: unknown[] = await db.notifications.toArray();
  const valid: AppNotification[] = [];
  for (const row of rows) {
    const parsed = notificationSchema.safeParse(row);
    if (parsed.success) valid.push(parsed.data);
  }
  return valid.sort(newestFirst);
}

/**
 * Keeps a REST list for offline use. Reads only ever go one way: a notification read here (perhaps while
 * offline, its PUT lost) stays read even when the fetched copy still says unread.
 */
export async function cacheNotifications(db: CampusDatabase, list: AppNotification[]): Promise<void> {
  if (list.length === 0) return;
  await db.transaction('rw', db.notifications, async () => {
    const current = await db.notifications.bulkGet(list.map((n) => n.id));
    const rows = list.map((notification, index) => {
      const cached = notificationSchema.safeParse(current[index]);
      const isRead = notification.isRead || (cached.success && cached.data.isRead);
      return toStored({ ...notification, isRead });
    });
    await db.notifications.bulkPut(rows);
    await dropDeletedSince(db, list);
  });
}

/**
 * The first page is the server's truth for the time it spans (all of the past when it is not full): a
 * cached row in that span that the page lacks was deleted there (its confession was), perhaps while this
 * device was away too long to hear of it. Rows newer than the page's newest arrived after the fetch.
 */
async function dropDeletedSince(db: CampusDatabase, newestFirst: readonly AppNotification[]): Promise<void> {
  const newest = newestFirst[0]!.createdAt;
  const oldest = newestFirst.length < NOTIFICATIONS_PAGE_SIZE ? '' : newestFirst.at(-1)!.createdAt;
  const listed = new Set(newestFirst.map((n) => n.id));
  const stale = await db.notifications
    .where('createdAt')
    .between(oldest, newest, true, true)
    .filter((row) => !listed.has(row.id))
    .primaryKeys();
  if (stale.length) await db.notifications.bulkDelete(stale);
}
