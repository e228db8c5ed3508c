import { ANON, type AppNotification, type ConfessionComment } from '@campus/protocol';
import type { CampusDatabase, LocalConfession, OutboxRow } from './database';
import { syncTables } from './apply-changes';
import { withReaction } from './confession-state';
import { toLocalNotification } from './notifications';

/**
 * Rows loaded through REST, stored so that this device's writes still queued stay visible: the server
 * has not seen them yet (or their ack was lost, when re-applying them changes nothing).
 */
export async function storeConfessions(db: CampusDatabase, rows: readonly LocalConfession[]): Promise<void> {
  await db.transaction('rw', syncTables(db), async () => {
    const queued = await db.outbox.toArray();
    const cached = await db.confessions.bulkGet(rows.map((row) => row.id));
    await db.confessions.bulkPut(rows.map((row, i) => withQueued(row, queued, cached[i]?.comments ?? [])));
  });
}

function withQueued(
  server: LocalConfession,
  queued: readonly OutboxRow[],
  cachedComments: readonly ConfessionComment[],
): LocalConfession {
  let row = server;
  for (const { frame } of queued) {
    if (frame.type === 'confession_react' && frame.confessionId === row.id) {
      row = withReaction(row, frame.reactionType, frame.on);
    } else if (frame.type === 'confession_comment' && frame.confessionId === row.id) {
      if (row.comments.some((c) => c.id === frame.id)) continue;
      // The optimistic comment as it was shown (with the viewer's nickname), else rebuilt from the frame.
      const comment = cachedComments.find((c) => c.id === frame.id) ?? {
        id: frame.id,
        confessionId: row.id,
        nickname: ANON,
        content: frame.content,
        createdAt: new Date().toISOString(),
        isMine: true,
      };
      row = { ...row, comments: [...row.comments, comment], commentCount: row.commentCount + 1 };
    }
  }
  return row;
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
