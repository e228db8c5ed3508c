import { sql as kysql } from 'kysely';
import type { AppNotification, NotificationType } from '@campus/protocol';
import type { DB } from '../../lib/db/database';
import { dialectOf, perDialect } from '../../lib/db/portable-sql';
import { sql, type Tx } from '../../realtime/transaction';

/** A `notifications` row as the panel reads it; `data` is JSON. */
export interface NotificationRow {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  data: string;
  created_at: string;
  is_read: number;
}

export interface SubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Most subscriptions one user keeps (browsers and desktops); registering another drops the oldest. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

/** The one mapper of a notification row. */
export function toNotification(row: NotificationRow): AppNotification {
  const data = JSON.parse(row.data) as { confessionId?: unknown };
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.body,
    createdAt: row.created_at,
    isRead: row.is_read === 1,
    data: typeof data.confessionId === 'string' ? { confessionId: data.confessionId } : {},
  };
}

// Writes: statements run through the engine's transaction (`tx`).
const insertSql = sql(
  `INSERT INTO notifications (id, user_id, type, title, body, data, created_at, is_read, confession_id)
   VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
);
// notifications_confession_idx: what a deleted confession leaves behind.
const ofConfessionSql = sql<{ id: string; user_id: string }>(
  'SELECT id, user_id FROM notifications WHERE confession_id = ?',
);
const deleteOfConfessionSql = sql('DELETE FROM notifications WHERE confession_id = ?');
const ownedSql = sql<{ is_read: number }>('SELECT is_read FROM notifications WHERE id = ? AND user_id = ?');
const markReadSql = sql('UPDATE notifications SET is_read = 1 WHERE id = ? AND user_id = ? AND is_read = 0');
// One browser, one row: whoever registers an endpoint last owns it (another account signed in there).
const upsertSubscriptionSql = sql(
  `INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth, created_at) VALUES (?, ?, ?, ?, ?)
   ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh,
     auth = excluded.auth, created_at = excluded.created_at`,
);
// A user's newest registration time (push_subscriptions_user_idx): each registration is stamped after it,
// so created_at orders a user's subscriptions as registered even within one millisecond.
const latestSubscriptionSql = sql<{ created_at: string | null }>(
  'SELECT max(created_at) AS created_at FROM push_subscriptions WHERE user_id = ?',
);
// The endpoint (the primary key) breaks ties between rows stored before registrations were stamped apart.
const trimSubscriptionsSql = sql(
  `DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint NOT IN (
     SELECT endpoint FROM push_subscriptions WHERE user_id = ?
      ORDER BY created_at DESC, endpoint DESC LIMIT ?)`,
);
const deleteSubscriptionSql = sql(
  'DELETE FROM push_subscriptions WHERE endpoint = ? AND p256dh = ? AND auth = ?',
);

export async function insertNotification(tx: Tx, userId: string, n: AppNotification): Promise<void> {
  await tx.run(
    insertSql,
    n.id,
    userId,
    n.type,
    n.title,
    n.body,
    JSON.stringify(n.data),
    n.createdAt,
    n.data.confessionId ?? null,
  );
}

/** Deletes the notifications about a confession; returns whose they were, to tell their devices. */
export async function deleteConfessionNotifications(
  tx: Tx,
  confessionId: string,
): Promise<Map<string, string[]>> {
  const byUser = new Map<string, string[]>();
  for (const row of await tx.all(ofConfessionSql, confessionId)) {
    const ids = byUser.get(row.user_id);
    if (ids) ids.push(row.id);
    else byUser.set(row.user_id, [row.id]);
  }
  if (byUser.size) await tx.run(deleteOfConfessionSql, confessionId);
  return byUser;
}

export async function isOwnNotification(tx: Tx, userId: string, id: string): Promise<boolean> {
  return (await tx.first(ownedSql, id, userId)) !== undefined;
}

/** True when it was unread until now. */
export async function setRead(tx: Tx, userId: string, id: string): Promise<boolean> {
  return (await tx.run(markReadSql, id, userId)) > 0;
}

/**
 * Stores the subscription for this user and keeps only their newest MAX_PUSH_SUBSCRIPTIONS. Stamped at
 * `createdAt`, or a millisecond after the user's newest registration when that is not earlier: "newest" is
 * then the order of registration on both databases (no rowid to break a tie on PostgreSQL).
 */
export async function upsertSubscription(
  tx: Tx,
  userId: string,
  sub: SubscriptionRow,
  createdAt: string,
): Promise<void> {
  const latest = (await tx.first(latestSubscriptionSql, userId))?.created_at;
  const at = latest && latest >= createdAt ? new Date(Date.parse(latest) + 1).toISOString() : createdAt;
  await tx.run(upsertSubscriptionSql, sub.endpoint, userId, sub.p256dh, sub.auth, at);
  await tx.run(trimSubscriptionsSql, userId, userId, MAX_PUSH_SUBSCRIPTIONS);
}

/** Only this exact subscription: the browser may have re-subscribed with new keys meanwhile. */
export async function deleteSubscription(tx: Tx, sub: SubscriptionRow): Promise<void> {
  await tx.run(deleteSubscriptionSql, sub.endpoint, sub.p256dh, sub.auth);
}

// Reads outside a write: the panel (REST) and the push sender.

/**
 * What orders rows made in the same millisecond. SQLite: the rowid, which notifications_user_created_idx
 * ends with (the page reads the index in order, no sort), and which is the order they were made in.
 * PostgreSQL has no rowid: the primary key, so a page's rows and its offsets stay stable.
 */
const SAME_MS_ORDER = perDialect((dialect) => (dialect === 'postgres' ? kysql`id` : kysql`rowid`));

/** notifications_user_created_idx, newest first (ties: SAME_MS_ORDER). */
export async function notificationPage(
  db: DB,
  userId: string,
  limit: number,
  offset: number,
): Promise<AppNotification[]> {
  const rows = await db
    .selectFrom('notifications')
    .select(['id', 'type', 'title', 'body', 'data', 'created_at', 'is_read'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy(SAME_MS_ORDER[dialectOf(db)], 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(toNotification);
}

/**
 * notifications_unread_idx (partial): counts unread rows only. The 0 is written into the statement, not
 * bound: parameters are opaque to SQLite's planner (lib/db/opaque-parameters.ts), and it takes the partial
 * index only when it sees the index's own condition.
 */
export async function countUnread(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('is_read', '=', kysql.lit(0))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function notificationExists(db: DB, id: string): Promise<boolean> {
  return (
    (await db.selectFrom('notifications').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
  );
}

export async function subscriptionsOf(db: DB, userId: string): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'p256dh', 'auth'])
    .where('user_id', '=', userId)
    .execute();
}
