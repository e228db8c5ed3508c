import type { FriendRequestStatus } from '@campus/protocol';
import { inList } from '../../lib/db/portable-sql';
import { sql } from '../../realtime/transaction';
import type { UserRefRow } from '../users';

/**
 * The friends module's statements; every list reads an index of migrations 0015 and 0017 (their tests plan
 * them).
 */

export interface RequestRow {
  id: string;
  from_id: string;
  to_id: string;
  status: FriendRequestStatus;
  created_at: string;
}

const requestColumns = 'id, from_id, to_id, status, created_at';

/** friend_requests_pending_pair_idx. */
export const pendingRequestSql = sql<RequestRow>(
  `SELECT ${requestColumns} FROM friend_requests WHERE from_id = ? AND to_id = ? AND status = 'pending'`,
);
export const requestByIdSql = sql<RequestRow>(`SELECT ${requestColumns} FROM friend_requests WHERE id = ?`);
export const insertRequestSql = sql(
  `INSERT INTO friend_requests (id, from_id, to_id, status, created_at) VALUES (?, ?, ?, 'pending', ?)`,
);
/** Only a pending request moves: a second decision (another device, a resend) changes nothing. */
export const decideRequestSql = sql(
  `UPDATE friend_requests SET status = ?, decided_at = ? WHERE id = ? AND status = 'pending'`,
);
/** Pending requests between two people, either way (blocking withdraws them): two pending-pair probes. */
export const pendingEitherWaySql = sql<RequestRow>(
  `SELECT ${requestColumns} FROM friend_requests WHERE from_id = ? AND to_id = ? AND status = 'pending'
   UNION ALL
   SELECT ${requestColumns} FROM friend_requests WHERE from_id = ? AND to_id = ? AND status = 'pending'`,
);

export type IncomingRow = RequestRow & UserRefRow;
/** The recipient's pending requests, newest first (friend_requests_incoming_idx); bounded for the modal. */
export const incomingRequestsSql = sql<IncomingRow & { sender_id: string }>(
  `SELECT r.id, r.from_id, r.to_id, r.status, r.created_at, u.id AS sender_id, u.first_name, u.last_name,
          u.profile_picture_url
     FROM friend_requests r JOIN users u ON u.id = r.from_id
    WHERE r.to_id = ? AND r.status = 'pending'
    ORDER BY r.created_at DESC LIMIT 500`,
);

export const friendshipSql = sql<{ one: number }>(
  'SELECT 1 AS one FROM friendships WHERE user_a = ? AND user_b = ?',
);
export const insertFriendshipSql = sql(
  `INSERT INTO friendships (user_a, user_b, created_at) VALUES (?, ?, ?)
   ON CONFLICT (user_a, user_b) DO NOTHING`,
);
export const deleteFriendshipSql = sql('DELETE FROM friendships WHERE user_a = ? AND user_b = ?');
/**
 * One page of a user's friends in id order after a cursor (`userId, after, userId, after, limit`): both
 * columns read in key order (the primary key, then friendships_user_b_idx) and merged, so a page costs its
 * own rows whatever the number of friends.
 */
export const friendsPageSql = sql<UserRefRow>(
  `SELECT u.id, u.first_name, u.last_name, u.profile_picture_url
     FROM (SELECT user_b AS id FROM friendships WHERE user_a = ? AND user_b > ?
           UNION ALL SELECT user_a FROM friendships WHERE user_b = ? AND user_a > ?
           ORDER BY 1 LIMIT ?) page
     JOIN users u ON u.id = page.id
    ORDER BY page.id`,
);

/** Whether the first blocked the second: one primary-key probe. */
export const blockedBySql = sql<{ one: number }>(
  'SELECT 1 AS one FROM blocks WHERE blocker_id = ? AND blocked_id = ?',
);
/** Whether either blocked the other: two primary-key probes (blocks is WITHOUT ROWID). */
export const blockedEitherWaySql = sql<{ one: number }>(
  `SELECT 1 AS one FROM blocks WHERE (blocker_id = ? AND blocked_id = ?) OR (blocker_id = ? AND blocked_id = ?)
    LIMIT 1`,
);
export const insertBlockSql = sql(
  `INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)
   ON CONFLICT (blocker_id, blocked_id) DO NOTHING`,
);
export const deleteBlockSql = sql('DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?');
/** One page of the people a user blocked, in id order after a cursor: the primary key's own order. */
export const blocksPageSql = sql<UserRefRow & { created_at: string }>(
  `SELECT u.id, u.first_name, u.last_name, u.profile_picture_url, b.created_at
     FROM blocks b JOIN users u ON u.id = b.blocked_id
    WHERE b.blocker_id = ? AND b.blocked_id > ?
    ORDER BY b.blocked_id LIMIT ?`,
);
/**
 * Whether `userId` and any of `others` blocked one another, either way (a new group's members): primary-key
 * probes, `userId` with each listed id in both key orders. Parameters: user, ...list, user, ...list.
 */
export const blockedWithAnySql = inList((others) =>
  sql<{ one: number }>(
    `SELECT 1 AS one WHERE
       EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id IN (${others}))
       OR EXISTS (SELECT 1 FROM blocks WHERE blocked_id = ? AND blocker_id IN (${others}))`,
  ),
);

/** A request held back by a block (migration 0017): the primary key of the direction. */
export const heldRequestSql = sql<{ created_at: string }>(
  'SELECT created_at FROM held_friend_requests WHERE from_id = ? AND to_id = ?',
);
/** Holds a request; 0 rows when one is held already (the sender asked before). */
export const insertHeldRequestSql = sql(
  `INSERT INTO held_friend_requests (from_id, to_id, created_at) VALUES (?, ?, ?)
   ON CONFLICT (from_id, to_id) DO NOTHING`,
);
export const deleteHeldRequestSql = sql('DELETE FROM held_friend_requests WHERE from_id = ? AND to_id = ?');

/**
 * Whether two people share a direct chat, a group or a friendship: the contact rule of chat/contacts.ts and
 * directory/contacts.ts for one pair (blocks aside), read inside an unblock's or an unfriend's transaction
 * (live.ts). Point lookups only.
 */
export const sharesSomethingSql = sql<{ one: number }>(
  `SELECT 1 AS one WHERE
     EXISTS (SELECT 1 FROM direct_conversations WHERE user_id = ? AND peer_id = ?)
     OR EXISTS (SELECT 1 FROM group_members m JOIN group_members o ON o.group_id = m.group_id AND o.user_id = ?
                 WHERE m.user_id = ?)
     OR EXISTS (SELECT 1 FROM friendships WHERE user_a = ? AND user_b = ?)`,
);

/** The pair as friendships stores it. */
export function orderedPair(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}
