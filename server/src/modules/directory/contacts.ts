import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../../lib/db/database';

/**
 * Whether `viewerId` is a contact of `userId`: they share a direct chat with at least one message (a
 * direct_conversations row exists only once one was sent), a group or a friendship, and neither blocked the
 * other (issue 12). The same rule as the realtime
 * presence set (realtime/presence.ts `loadContacts`), asked for one pair: a profile read must not hand a
 * stranger the last-active time that presence already keeps from them, or polling it would tell when
 * anyone comes and goes.
 *
 * Two point lookups, no scan: the direct_conversations primary key (user_id, peer_id), then the viewer's
 * groups through group_members_user_idx and each group's membership through the (group_id, user_id) key.
 */
export function contactCheck(viewerId: string, userId: string): RawBuilder<{ contact: number | boolean }> {
  const [a, b] = viewerId < userId ? [viewerId, userId] : [userId, viewerId];
  return sql<{ contact: number | boolean }>`SELECT (
      (EXISTS (SELECT 1 FROM direct_conversations WHERE user_id = ${viewerId} AND peer_id = ${userId})
       OR EXISTS (
         SELECT 1 FROM group_members m
           JOIN group_members o ON o.group_id = m.group_id AND o.user_id = ${userId}
          WHERE m.user_id = ${viewerId})
       OR EXISTS (SELECT 1 FROM friendships WHERE user_a = ${a} AND user_b = ${b}))
      AND NOT EXISTS (
        SELECT 1 FROM blocks WHERE (blocker_id = ${viewerId} AND blocked_id = ${userId})
           OR (blocker_id = ${userId} AND blocked_id = ${viewerId}))
    ) AS contact`;
}

export async function areContacts(db: DB, viewerId: string, userId: string): Promise<boolean> {
  if (viewerId === userId) return true;
  const { rows } = await contactCheck(viewerId, userId).execute(db);
  // 0/1 on SQLite, false/true on PostgreSQL.
  return Number(rows[0]?.contact) === 1;
}
