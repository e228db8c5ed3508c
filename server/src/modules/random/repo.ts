import { sql } from '../../realtime/transaction';
import type { UserRow } from '../users';

/** The random module's statements: point lookups and index ranges only (its queues live in memory). */

export const userSql = sql<UserRow>('SELECT * FROM users WHERE id = ?');

/**
 * Everyone with a block between them and the user, either way, made anywhere (the friends' blocks) or in a
 * random room (random_blocks): the tables' keys and their blocked-side indexes.
 */
export const blockedEitherWaySql = sql<{ id: string }>(
  `SELECT blocked_id AS id FROM blocks WHERE blocker_id = ?
   UNION SELECT blocker_id AS id FROM blocks WHERE blocked_id = ?
   UNION SELECT blocked_id AS id FROM random_blocks WHERE blocker_id = ?
   UNION SELECT blocker_id AS id FROM random_blocks WHERE blocked_id = ?`,
);

/** A room's Block (or a Report's): the partner stays unnamed to the blocker. */
export const insertRandomBlockSql = sql(
  `INSERT INTO random_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)
   ON CONFLICT (blocker_id, blocked_id) DO NOTHING`,
);

/** Whether a random block stands between the two, either way (both keys). */
export const randomBlockedSql = sql<{ one: number }>(
  `SELECT 1 AS one FROM random_blocks WHERE (blocker_id = ? AND blocked_id = ?)
      OR (blocker_id = ? AND blocked_id = ?)`,
);

/**
 * Whom the user blocked (anywhere, or from a room): all that counts may leave out. Blocks made by others are
 * not: leaving those out would let a student learn who blocked them from a count.
 */
export const blockedByUserSql = sql<{ id: string }>(
  `SELECT blocked_id AS id FROM blocks WHERE blocker_id = ?
   UNION SELECT blocked_id AS id FROM random_blocks WHERE blocker_id = ?`,
);
