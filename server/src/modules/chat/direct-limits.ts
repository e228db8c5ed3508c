import { awaitingReplyError, type UserRef } from '@campus/protocol';
import { Refusal } from '../../lib/refusal';
import type { ParticipationCheck } from '../../realtime/registry';
import { sql, type Tx } from '../../realtime/transaction';

const HOUR_MS = 60 * 60_000;

/**
 * Against one account spamming the directory (issue 9: 149 DMs to a stranger in 3 s were accepted).
 * A real first contact rarely needs more than a few messages before an answer, and twenty new people an
 * hour is far more than anyone meets; a reply lifts the cap for good, so friends who talk are never limited.
 */
export const DIRECT_LIMITS = {
  /** Messages to someone who has never sent one in that chat. */
  unansweredMessages: 10,
  /** Direct chats a user may start (send the first message of) per rolling hour. */
  newConversationsPerHour: 20,
} as const;

// Both rows of the pair by primary key; null when the conversation does not exist yet.
const countsSql = sql<{ mine: number | null; theirs: number | null }>(
  `SELECT (SELECT sent_count FROM direct_conversations WHERE user_id = ? AND peer_id = ?) AS mine,
          (SELECT sent_count FROM direct_conversations WHERE user_id = ? AND peer_id = ?) AS theirs`,
);
// direct_conversations_started_idx: at most the limit's worth of rows is counted.
const startedSinceSql = sql<{ n: number }>(
  'SELECT count(*) AS n FROM direct_conversations WHERE user_id = ? AND started_ms >= ?',
);

/** How many messages each side of a direct chat has sent (null: that side's row does not exist yet). */
export interface DirectCounts {
  mine: number | null;
  theirs: number | null;
}

/** The first read of checkDirectLimits, for a caller that asks it together with others. */
export async function directCounts(
  tx: Pick<Tx, 'first'>,
  fromUserId: string,
  toUserId: string,
): Promise<DirectCounts> {
  return (await tx.first(countsSql, fromUserId, toUserId, toUserId, fromUserId))!;
}

/**
 * Checks a new direct message from `fromUserId` to `to` against the limits; throws a `Refusal` when one
 * refuses it. Returns whether the message starts the conversation (the caller stamps `started_ms`).
 * Two primary-key lookups per message; the hourly count runs only for a first message.
 *
 * The access policy draws the same line: a message to someone who has written in this chat answers them
 * and is open to every account; any other (the first, or more while unanswered) is starting a chat, so
 * `participation` (when given) must let the sender take part. `counts`: directCounts's answer, when the
 * caller asked for it together with its own reads.
 */
export async function checkDirectLimits(
  tx: Tx,
  fromUserId: string,
  to: UserRef,
  participation?: ParticipationCheck,
  counts?: DirectCounts,
): Promise<{ starts: boolean }> {
  const { mine, theirs } = counts ?? (await directCounts(tx, fromUserId, to.id));
  if (theirs !== null && theirs > 0) return { starts: false };
  if (participation) await participation(tx, fromUserId);
  if (mine === null) {
    const started = (await tx.first(startedSinceSql, fromUserId, tx.now - HOUR_MS))!.n;
    if (started >= DIRECT_LIMITS.newConversationsPerHour) throw new Refusal('tooManyConversations', 429);
    return { starts: true };
  }
  // Not a matter of time: only the recipient's reply lifts it, so no 429 that invites a retry.
  if (mine >= DIRECT_LIMITS.unansweredMessages)
    throw new Refusal('awaitingReply', 403, awaitingReplyError(to.firstName));
  return { starts: false };
}
