import type SQLite from 'better-sqlite3';
import { awaitingReplyError, type UserRef } from '@campus/protocol';
import { ChatRefusal } from './refusal';

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

interface PairCounts {
  mine: number | null;
  theirs: number | null;
}

function prepare(sqlite: SQLite.Database) {
  return {
    // Both rows of the pair by primary key; null when the conversation does not exist yet.
    counts: sqlite.prepare<[string, string, string, string], PairCounts>(
      `SELECT (SELECT sent_count FROM direct_conversations WHERE user_id = ? AND peer_id = ?) AS mine,
              (SELECT sent_count FROM direct_conversations WHERE user_id = ? AND peer_id = ?) AS theirs`,
    ),
    // direct_conversations_started_idx: at most the limit's worth of rows is counted.
    startedSince: sqlite.prepare<[string, number], { n: number }>(
      'SELECT count(*) AS n FROM direct_conversations WHERE user_id = ? AND started_ms >= ?',
    ),
  };
}

const statements = new WeakMap<SQLite.Database, ReturnType<typeof prepare>>();
function limitStatements(sqlite: SQLite.Database): ReturnType<typeof prepare> {
  let s = statements.get(sqlite);
  if (!s) statements.set(sqlite, (s = prepare(sqlite)));
  return s;
}

/**
 * Checks a new direct message from `fromUserId` to `to` against the limits; throws `ChatRefusal` when one
 * refuses it. Returns whether the message starts the conversation (the caller stamps `started_ms`).
 * Two primary-key lookups per message; the hourly count runs only for a first message.
 */
export function checkDirectLimits(sqlite: SQLite.Database, fromUserId: string, to: UserRef, nowMs: number) {
  const s = limitStatements(sqlite);
  const { mine, theirs } = s.counts.get(fromUserId, to.id, to.id, fromUserId)!;
  if (theirs !== null && theirs > 0) return { starts: false };
  if (mine === null) {
    const started = s.startedSince.get(fromUserId, nowMs - HOUR_MS)!.n;
    if (started >= DIRECT_LIMITS.newConversationsPerHour) throw new ChatRefusal('tooManyConversations');
    return { starts: true };
  }
  if (mine >= DIRECT_LIMITS.unansweredMessages)
    throw new ChatRefusal('awaitingReply', awaitingReplyError(to.firstName));
  return { starts: false };
}
