import { sql } from '../../realtime/transaction';
import type { UserRow } from '../users';

/** The random module's statements: point lookups and index ranges only (its queues live in memory). */

export const userSql = sql<UserRow>('SELECT * FROM users WHERE id = ?');

/** Everyone with a block between them and the user, either way: the blocks' key and blocks_blocked_idx. */
export const blockedEitherWaySql = sql<{ id: string }>(
  `SELECT blocked_id AS id FROM blocks WHERE blocker_id = ?
   UNION SELECT blocker_id AS id FROM blocks WHERE blocked_id = ?`,
);
