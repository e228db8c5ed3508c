import type SQLite from 'better-sqlite3';
import type { AppNotification, NotificationType } from '@campus/protocol';

interface NotificationRow {
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

/** Prepared once per database; every notification read and write runs one of these. */
function prepare(sqlite: SQLite.Database) {
  return {
    insert: sqlite.prepare<[string, string, NotificationType, string, string, string, string, string | null]>(
      `INSERT INTO notifications (id, user_id, type, title, body, data, created_at, is_read, confession_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    ),
    // notifications_confession_idx: what a deleted confession leaves behind.
    ofConfession: sqlite.prepare<[string], { id: string; user_id: string }>(
      'SELECT id, user_id FROM notifications WHERE confession_id = ?',
    ),
    deleteOfConfession: sqlite.prepare<[string]>('DELETE FROM notifications WHERE confession_id = ?'),
    // notifications_user_created_idx; rowid orders rows made in the same millisecond.
    page: sqlite.prepare<[string, number, number], NotificationRow>(
      `SELECT id, type, title, body, data, created_at, is_read FROM notifications
        WHERE user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
    ),
    // notifications_unread_idx (partial): counts unread rows only.
    unreadCount: sqlite.prepare<[string], { n: number }>(
      'SELECT count(*) AS n FROM notifications WHERE user_id = ? AND is_read = 0',
    ),
    owned: sqlite.prepare<[string, string], { is_read: number }>(
      'SELECT is_read FROM notifications WHERE id = ? AND user_id = ?',
    ),
    markRead: sqlite.prepare<[string, string]>(
      'UPDATE notifications SET is_read = 1 WHERE id = ? AND user_id = ? AND is_read = 0',
    ),
    exists: sqlite.prepare<[string], { one: number }>('SELECT 1 AS one FROM notifications WHERE id = ?'),

    subscriptionsOf: sqlite.prepare<[string], SubscriptionRow>(
      'SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = ?',
    ),
    // One browser, one row: whoever registers an endpoint last owns it (another account signed in there).
    upsertSubscription: sqlite.prepare<[string, string, string, string, string]>(
      `INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh,
         auth = excluded.auth, created_at = excluded.created_at`,
    ),
    trimSubscriptions: sqlite.prepare<[string, string, number]>(
      `DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint NOT IN (
         SELECT endpoint FROM push_subscriptions WHERE user_id = ?
          ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
    ),
    deleteSubscription: sqlite.prepare<[string, string, string]>(
      'DELETE FROM push_subscriptions WHERE endpoint = ? AND p256dh = ? AND auth = ?',
    ),
  };
}

const cache = new WeakMap<SQLite.Database, ReturnType<typeof prepare>>();
function stmts(sqlite: SQLite.Database): ReturnType<typeof prepare> {
  let s = cache.get(sqlite);
  if (!s) cache.set(sqlite, (s = prepare(sqlite)));
  return s;
}

export function insertNotification(sqlite: SQLite.Database, userId: string, n: AppNotification): void {
  const data = JSON.stringify(n.data);
  stmts(sqlite).insert.run(
    n.id,
    userId,
    n.type,
    n.title,
    n.body,
    data,
    n.createdAt,
    n.data.confessionId ?? null,
  );
}

/** Deletes the notifications about a confession; returns whose they were, to tell their devices. */
export function deleteConfessionNotifications(
  sqlite: SQLite.Database,
  confessionId: string,
): Map<string, string[]> {
  const s = stmts(sqlite);
  const byUser = new Map<string, string[]>();
  for (const row of s.ofConfession.all(confessionId)) {
    const ids = byUser.get(row.user_id);
    if (ids) ids.push(row.id);
    else byUser.set(row.user_id, [row.id]);
  }
  if (byUser.size) s.deleteOfConfession.run(confessionId);
  return byUser;
}

export function notificationPage(
  sqlite: SQLite.Database,
  userId: string,
  limit: number,
  offset: number,
): AppNotification[] {
  return stmts(sqlite).page.all(userId, limit, offset).map(toNotification);
}

export function countUnread(sqlite: SQLite.Database, userId: string): number {
  return stmts(sqlite).unreadCount.get(userId)?.n ?? 0;
}

export function isOwnNotification(sqlite: SQLite.Database, userId: string, id: string): boolean {
  return stmts(sqlite).owned.get(id, userId) !== undefined;
}

/** True when it was unread until now. */
export function setRead(sqlite: SQLite.Database, userId: string, id: string): boolean {
  return stmts(sqlite).markRead.run(id, userId).changes > 0;
}

export function notificationExists(sqlite: SQLite.Database, id: string): boolean {
  return stmts(sqlite).exists.get(id) !== undefined;
}

export function subscriptionsOf(sqlite: SQLite.Database, userId: string): SubscriptionRow[] {
  return stmts(sqlite).subscriptionsOf.all(userId);
}

/** Stores the subscription for this user and keeps only their newest MAX_PUSH_SUBSCRIPTIONS, atomically. */
export function upsertSubscription(
  sqlite: SQLite.Database,
  userId: string,
  sub: SubscriptionRow,
  createdAt: string,
): void {
  const s = stmts(sqlite);
  sqlite.transaction(() => {
    s.upsertSubscription.run(sub.endpoint, userId, sub.p256dh, sub.auth, createdAt);
    s.trimSubscriptions.run(userId, userId, MAX_PUSH_SUBSCRIPTIONS);
  })();
}

/** Only this exact subscription: the browser may have re-subscribed with new keys meanwhile. */
export function deleteSubscription(sqlite: SQLite.Database, sub: SubscriptionRow): void {
  stmts(sqlite).deleteSubscription.run(sub.endpoint, sub.p256dh, sub.auth);
}

function toNotification(row: NotificationRow): AppNotification {
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
