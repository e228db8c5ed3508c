import type { ReportContext } from '@campus/protocol';
import { sql, type ReadTx } from '../../realtime/transaction';

/**
 * Whether a reporter may report someone from a context: only from a place where the two really met, so the
 * route cannot be used to probe who exists or who talks to whom (a stranger's context answers as an unknown
 * user). Point lookups on the other features' keys; a random room is vouched for by the random module.
 */

/** A direct chat (direct_conversations exists once a message was sent either way) or a shared group. */
const chatSql = sql<{ one: number }>(
  `SELECT 1 AS one WHERE
     EXISTS (SELECT 1 FROM direct_conversations WHERE user_id = ? AND peer_id = ?)
     OR EXISTS (SELECT 1 FROM group_members m JOIN group_members o ON o.group_id = m.group_id AND o.user_id = ?
                 WHERE m.user_id = ?)`,
);

/**
 * A call between them the reporter can see: as caller, or as callee unless hidden (the callee had blocked
 * the caller, so it never reached them). Parameters: reporter, reported, reported, reporter.
 */
const callSql = sql<{ one: number }>(
  `SELECT 1 AS one WHERE
     EXISTS (SELECT 1 FROM call_logs WHERE caller_id = ? AND callee_id = ?)
     OR EXISTS (SELECT 1 FROM call_logs WHERE caller_id = ? AND callee_id = ? AND callee_hidden = 0)`,
);
const callByIdSql = sql<{ caller_id: string; callee_id: string; callee_hidden: number }>(
  'SELECT caller_id, callee_id, callee_hidden FROM call_logs WHERE id = ?',
);

/**
 * Friends, or someone who asked to be: a friendship, or a request from the reported user to the reporter
 * (pending, or held by the reporter's block), or a chat or group they share. Nothing the reporter can make
 * alone counts (their own request or block): a stranger is not reported from a friend row. Parameters: the
 * ordered pair, then (reported, reporter) twice.
 */
const friendSql = sql<{ one: number }>(
  `SELECT 1 AS one WHERE
     EXISTS (SELECT 1 FROM friendships WHERE user_a = ? AND user_b = ?)
     OR EXISTS (SELECT 1 FROM friend_requests WHERE from_id = ? AND to_id = ? AND status = 'pending')
     OR EXISTS (SELECT 1 FROM held_friend_requests WHERE from_id = ? AND to_id = ?)`,
);

async function sharesChat(tx: ReadTx, reporterId: string, reportedId: string): Promise<boolean> {
  return (await tx.first(chatSql, reporterId, reportedId, reportedId, reporterId)) !== undefined;
}

/** Whether `reporterId` may report `reportedId` from `context` (a random room: always, see above). */
export async function contextAllows(
  tx: ReadTx,
  reporterId: string,
  reportedId: string,
  context: ReportContext,
): Promise<boolean> {
  switch (context.kind) {
    case 'random_room':
      return true;
    case 'chat':
      return sharesChat(tx, reporterId, reportedId);
    case 'call': {
      if (context.callLogId === undefined)
        return (await tx.first(callSql, reporterId, reportedId, reportedId, reporterId)) !== undefined;
      const log = await tx.first(callByIdSql, context.callLogId);
      if (!log) return false;
      if (log.caller_id === reporterId) return log.callee_id === reportedId;
      return log.callee_id === reporterId && log.caller_id === reportedId && log.callee_hidden === 0;
    }
    case 'friend': {
      const [a, b] = reporterId < reportedId ? [reporterId, reportedId] : [reportedId, reporterId];
      const found = await tx.first(friendSql, a, b, reportedId, reporterId, reportedId, reporterId);
      return found !== undefined || sharesChat(tx, reporterId, reportedId);
    }
  }
}

/** What the report row stores of its context beside the reported user. */
export function contextRef(context: ReportContext): string | null {
  if (context.kind === 'random_room') return context.roomId;
  if (context.kind === 'call') return context.callLogId ?? null;
  return null;
}
