import type { FriendRequestStatus } from '@campus/protocol';
import { sql } from '../../realtime/transaction';
import type { UserRefRow } from '../users';

/** The friends module's statements; every list reads an index of migration 0015 (its test plans them). */

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
  'INSERT OR IGNORE INTO friendships (user_a, user_b, created_at) VALUES (?, ?, ?)',
);
export const deleteFriendshipSql = sql('DELETE FROM friendships WHERE user_a = ? AND user_b = ?');
/** A user's friends from either column (primary key, then friendships_user_b_idx), sorted by name. */
export const friendsSql = sql<UserRefRow>(
  `SELECT u.id, u.first_name, u.last_name, u.profile_picture_url
     FROM (SELECT user_b AS id FROM friendships WHERE user_a = ?
           UNION ALL SELECT user_a FROM friendships WHERE user_b = ?) f
     JOIN users u ON u.id = f.id
    ORDER BY u.first_name, u.last_name, u.id`,
);

/** Whether either blocked the other: two primary-key probes (blocks is WITHOUT ROWID). */
export const blockedEitherWaySql = sql<{ one: number }>(
  `SELECT 1 AS one FROM blocks WHERE (blocker_id = ? AND blocked_id = ?) OR (blocker_id = ? AND blocked_id = ?)
    LIMIT 1`,
);
export const insertBlockSql = sql(
  'INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)',
);
export const deleteBlockSql = sql('DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?');
export const blocksSql = sql<UserRefRow & { created_at: string }>(
  `SELECT u.id, u.first_name, u.last_name, u.profile_picture_url, b.created_at
     FROM blocks b JOIN users u ON u.id = b.blocked_id
    WHERE b.blocker_id = ? ORDER BY b.created_at DESC`,
);

/**
 * Whether two people share a direct chat, a group or a friendship: the contact rule of chat/contacts.ts and
 * directory/contacts.ts for one pair (blocks aside), read inside an unblock's transaction. Point lookups only.
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
