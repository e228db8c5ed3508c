import type { ReactionType } from '@campus/protocol';
import { inList, valuesList } from '../../lib/db/portable-sql';
import { sql } from '../../realtime/transaction';
import { CARD_COLUMNS } from './queries';
import type { CommentRow, ConfessionRow } from './rows';

/**
 * The feed's and the comments panel's reads, run through `Transactor.read` (never a raw handle, which could
 * read inside another commit's open transaction and return rows it then rolls back). `?` placeholders in
 * the order they appear; the viewer (deciding `is_mine`) always comes first.
 */

const COMMENT_COLUMNS = 'author_id = ? AS is_mine, id, confession_id, nickname, content, created_at';

/**
 * A card is in the feed once the publisher announced it (posted_seq set, publisher.ts), 1–4 s after its post,
 * except to its author: shown at once to everyone, a poll of the feed would tie it to its author's other
 * writes of that moment, the very link the publisher's delay cuts on the live channel.
 */
const ANNOUNCED = '(posted_seq IS NOT NULL OR author_id = ?)';
/** Posts waiting for the publisher (confessions_unpublished_idx: only those of the last seconds). */
const WAITING = 'SELECT count(*) FROM confessions WHERE posted_seq IS NULL AND deleted_at IS NULL';

export const feedQ = {
  // confessions_feed_idx / confessions_college_feed_idx, newest first. Parameters: viewer, viewer, limit,
  // offset.
  feedAll: sql<ConfessionRow>(
    `SELECT ${CARD_COLUMNS} FROM confessions WHERE deleted_at IS NULL AND ${ANNOUNCED}
      ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
  ),
  /** Parameters: viewer, college, viewer, limit, offset. */
  feedCollege: sql<ConfessionRow>(
    `SELECT ${CARD_COLUMNS} FROM confessions WHERE deleted_at IS NULL AND college = ? AND ${ANNOUNCED}
      ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
  ),
  // The tab counts, kept by triggers (migration 0005), less the posts not announced yet (for the reason
  // above): all, and one college's ('c:<college>'; parameters: scope, college).
  // Cast: PostgreSQL's count is a bigint, which node-postgres hands over as a string.
  totalAll: sql<{ n: number }>(
    `SELECT CAST(n - (${WAITING}) AS INTEGER) AS n FROM confession_totals WHERE scope = '*'`,
  ),
  totalCollege: sql<{ n: number }>(
    `SELECT CAST(n - (${WAITING} AND college = ?) AS INTEGER) AS n FROM confession_totals WHERE scope = ?`,
  ),
  // The viewer's own reactions on a page of confessions, never anyone else's: one key lookup per card
  // (user_id and confession_id both equal), not a scan of everything the viewer reacted to.
  // Parameters: viewer, ...ids.
  myReactionsIn: inList((ids) =>
    sql<{ confession_id: string; reaction_type: ReactionType }>(
      `SELECT confession_id, reaction_type FROM confession_reactions
        WHERE user_id = ? AND confession_id IN (${ids})`,
    ),
  ),
  // The newest few comments of each confession of a page: one index range per confession.
  // Parameters: viewer, ...ids, per card.
  newestComments: valuesList((ids) =>
    sql<CommentRow>(
      `SELECT c.author_id = ? AS is_mine, c.id, c.confession_id, c.nickname, c.content, c.created_at
         FROM ${ids} j, confession_comments c
        WHERE c.id IN (SELECT id FROM confession_comments WHERE confession_id = j.column1
                        ORDER BY created_at DESC, id DESC LIMIT ?)`,
    ),
  ),
  /** Parameters: viewer, confession id, limit, offset. */
  commentsPage: sql<CommentRow>(
    `SELECT ${COMMENT_COLUMNS} FROM confession_comments WHERE confession_id = ?
      ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
  ),
};
