import type SQLite from 'better-sqlite3';
import type { ReactionType } from '@campus/protocol';

/**
 * The feed's reads, on better-sqlite3 prepared statements (reads outside any write; the writes' statements
 * are in queries.ts and run through the engine's Tx).
 */

/** A confession as the feed reads it: no author id, only whether the viewer wrote it. */
export interface ConfessionRow {
  id: string;
  nickname: string;
  content: string;
  emotion_tag: string;
  college: string | null;
  created_at: string;
  relatable_count: number;
  funny_count: number;
  feel_you_count: number;
  share_worthy_count: number;
  comment_count: number;
  is_mine: 0 | 1;
}

export interface CommentRow {
  id: string;
  confession_id: string;
  nickname: string;
  content: string;
  created_at: string;
  is_mine: 0 | 1;
}

/** What ownership and idempotency checks need (queries.ts); stays on the server. */
export interface ConfessionOwnerRow {
  author_id: string;
  deleted_at: string | null;
  college: string | null;
}

const CARD_COLUMNS = `id, nickname, content, emotion_tag, college, created_at, relatable_count, funny_count,
  feel_you_count, share_worthy_count, comment_count, author_id = @viewer AS is_mine`;
const COMMENT_COLUMNS = `id, confession_id, nickname, content, created_at, author_id = @viewer AS is_mine`;

/** The part of a better-sqlite3 statement used here; declared so the statements' type can be named elsewhere. */
export interface Statement<P extends unknown[], R> {
  run(...params: P): SQLite.RunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
}

function statement<P extends unknown[], R = unknown>(
  sqlite: SQLite.Database,
  source: string,
): Statement<P, R> {
  return sqlite.prepare<P, R>(source);
}

function prepare(sqlite: SQLite.Database) {
  return {
    nicknameOf: statement<[string], { nickname: string }>(
      sqlite,
      'SELECT nickname FROM nicknames WHERE user_id = ?',
    ),
    // A name is someone else's while it is their nickname or once it signed something of theirs, by its
    // key (the same name in any case) or its skeleton (a look-alike). `by_key` tells which: only the name
    // itself may be set again over a look-alike clash left from before migration 0007.
    nicknameOwners: statement<[{ key: string; skeleton: string }], { user_id: string; by_key: 0 | 1 }>(
      sqlite,
      `SELECT user_id, nickname_key = @key AS by_key FROM nicknames
        WHERE nickname_key = @key OR skeleton = @skeleton
       UNION SELECT user_id, nickname_key = @key FROM nickname_claims
        WHERE nickname_key = @key OR skeleton = @skeleton`,
    ),
    card: statement<[{ viewer: string; id: string }], ConfessionRow>(
      sqlite,
      `SELECT ${CARD_COLUMNS} FROM confessions WHERE id = @id AND deleted_at IS NULL`,
    ),
    // Feed: confessions_feed_idx / confessions_college_feed_idx, newest first.
    feedAll: statement<[{ viewer: string; limit: number; offset: number }], ConfessionRow>(
      sqlite,
      `SELECT ${CARD_COLUMNS} FROM confessions WHERE deleted_at IS NULL
        ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
    ),
    feedCollege: statement<
      [{ viewer: string; college: string; limit: number; offset: number }],
      ConfessionRow
    >(
      sqlite,
      `SELECT ${CARD_COLUMNS} FROM confessions WHERE deleted_at IS NULL AND college = @college
        ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
    ),
    // The tab counts, kept by triggers (migration 0005): '*' for all, 'c:<college>' for one.
    total: statement<[string], { n: number }>(sqlite, 'SELECT n FROM confession_totals WHERE scope = ?'),
    // The viewer's own reactions on a page of confessions, never anyone else's. CROSS JOIN keeps the page's
    // ids outside: one key lookup per card, not a scan of everything the viewer ever reacted to.
    myReactionsIn: statement<[string, string], { confession_id: string; reaction_type: ReactionType }>(
      sqlite,
      `SELECT r.confession_id, r.reaction_type FROM json_each(?) j
         CROSS JOIN confession_reactions r ON r.confession_id = j.value AND r.user_id = ?`,
    ),
    // The newest few comments of each confession of a page: one index range per confession.
    newestComments: statement<[{ viewer: string; ids: string; per: number }], CommentRow>(
      sqlite,
      `SELECT c.id, c.confession_id, c.nickname, c.content, c.created_at, c.author_id = @viewer AS is_mine
         FROM json_each(@ids) j, confession_comments c
        WHERE c.id IN (SELECT id FROM confession_comments WHERE confession_id = j.value
                        ORDER BY created_at DESC, id DESC LIMIT @per)`,
    ),
    commentsPage: statement<
      [{ viewer: string; confessionId: string; limit: number; offset: number }],
      CommentRow
    >(
      sqlite,
      `SELECT ${COMMENT_COLUMNS} FROM confession_comments WHERE confession_id = @confessionId
        ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
    ),
  };
}

export type ConfessionStatements = ReturnType<typeof prepare>;

const cache = new WeakMap<SQLite.Database, ConfessionStatements>();
/** Prepared once per database. */
export function confessionStatements(sqlite: SQLite.Database): ConfessionStatements {
  let s = cache.get(sqlite);
  if (!s) cache.set(sqlite, (s = prepare(sqlite)));
  return s;
}
