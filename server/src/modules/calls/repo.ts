import type { CallLogStatus, CallType } from '@campus/protocol';
import { sql } from '../../realtime/transaction';

/** The calls module's statements; the history reads the indexes of migration 0016 (its test plans them). */

/**
 * What placing a call from the first user to the second depends on, in one read (point lookups only; no
 * row when the callee does not exist): a block each way (blocks' primary key), and whether the callee
 * accepted contact: a friendship, or a direct chat in which the callee has written to the caller (their
 * row's sent_count). A message from the caller alone, or a group anyone can put a stranger in, is not
 * enough: either would let anyone ring a stranger's devices. Parameters: see `pairParams`.
 */
export const pairSql = sql<{ caller_blocked: number; callee_blocked: number; shares: number }>(
  `SELECT
     EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?) AS caller_blocked,
     EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?) AS callee_blocked,
     (EXISTS (SELECT 1 FROM direct_conversations WHERE user_id = ? AND peer_id = ? AND sent_count > 0)
      OR EXISTS (SELECT 1 FROM friendships WHERE user_a = ? AND user_b = ?)) AS shares
     FROM users WHERE id = ?`,
);

export function pairParams(callerId: string, calleeId: string): string[] {
  const [a, b] = callerId < calleeId ? [callerId, calleeId] : [calleeId, callerId];
  return [callerId, calleeId, calleeId, callerId, calleeId, callerId, a, b, calleeId];
}

/**
 * A call's row, once: the id is chosen as the call is placed, so a coordinator that logs a call another
 * one already logged (the state it took over was written before that log landed) inserts nothing.
 */
export const insertLogSql = sql(
  `INSERT INTO call_logs (id, caller_id, callee_id, call_type, status, started_at, duration, callee_hidden)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (id) DO NOTHING`,
);

export interface CallLogRow {
  id: string;
  caller_id: string;
  callee_id: string;
  call_type: CallType;
  status: CallLogStatus;
  started_at: string;
  duration: number;
  caller_first_name: string;
  caller_last_name: string;
  caller_picture: string | null;
  callee_first_name: string;
  callee_last_name: string;
  callee_picture: string | null;
}

const logColumns = 'id, caller_id, callee_id, call_type, status, started_at, duration';

/**
 * One page of a user's history, newest first, before the keyset (started_at, id): at most `limit` of their
 * calls as caller (call_logs_caller_idx) and as callee (call_logs_callee_idx, which holds no hidden row),
 * merged, then both parties' cards joined to the page only. Parameters: user, started_at, id, limit, user,
 * started_at, id, limit, limit.
 */
export const logsPageSql = sql<CallLogRow>(
  `SELECT l.id, l.caller_id, l.callee_id, l.call_type, l.status, l.started_at, l.duration,
          a.first_name AS caller_first_name, a.last_name AS caller_last_name,
          a.profile_picture_url AS caller_picture,
          b.first_name AS callee_first_name, b.last_name AS callee_last_name,
          b.profile_picture_url AS callee_picture
     FROM (
       SELECT * FROM (SELECT ${logColumns} FROM call_logs
                       WHERE caller_id = ? AND (started_at, id) < (?, ?)
                       ORDER BY started_at DESC, id DESC LIMIT ?) AS made
       UNION ALL
       SELECT * FROM (SELECT ${logColumns} FROM call_logs
                       WHERE callee_id = ? AND callee_hidden = 0 AND (started_at, id) < (?, ?)
                       ORDER BY started_at DESC, id DESC LIMIT ?) AS received
       ORDER BY started_at DESC, id DESC LIMIT ?
     ) l
     JOIN users a ON a.id = l.caller_id
     JOIN users b ON b.id = l.callee_id
    ORDER BY l.started_at DESC, l.id DESC`,
);
