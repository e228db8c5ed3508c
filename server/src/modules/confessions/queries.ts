import type { ReactionType } from '@campus/protocol';
import { sql } from '../../realtime/transaction';
import type { CommentRow, ConfessionOwnerRow, ConfessionRow, UnpublishedRow } from './rows';

/**
 * The statements of the confession writes and of the publisher, run through the engine's `Tx` (portable SQL,
 * `?` placeholders in order). The feed's reads are in feed-queries.ts.
 */

/** The counter column of each reaction type (fixed names, never user input). */
const COUNT_COLUMN: Record<ReactionType, string> = {
  relatable: 'relatable_count',
  funny: 'funny_count',
  feelYou: 'feel_you_count',
  shareWorthy: 'share_worthy_count',
};

/** A card's counts, as `confession_counts` carries them. */
export type CountsRow = Pick<
  ConfessionRow,
  'relatable_count' | 'funny_count' | 'feel_you_count' | 'share_worthy_count' | 'comment_count'
>;

const COUNT_COLUMNS = 'relatable_count, funny_count, feel_you_count, share_worthy_count, comment_count';
const CARD_FIELDS = `id, nickname, content, emotion_tag, college, created_at, ${COUNT_COLUMNS}`;
/** The viewer (first parameter) decides `is_mine`. */
export const CARD_COLUMNS = `author_id = ? AS is_mine, ${CARD_FIELDS}`;

const perType = (build: (column: string) => string) =>
  ({
    relatable: sql(build(COUNT_COLUMN.relatable)),
    funny: sql(build(COUNT_COLUMN.funny)),
    feelYou: sql(build(COUNT_COLUMN.feelYou)),
    shareWorthy: sql(build(COUNT_COLUMN.shareWorthy)),
  }) satisfies Record<ReactionType, unknown>;

export const q = {
  nicknameOf: sql<{ nickname: string }>('SELECT nickname FROM nicknames WHERE user_id = ?'),
  // A name is someone else's while it is their nickname or once it signed something of theirs, by its key
  // (the same name in any case) or its skeleton (a look-alike). `by_key` tells which. Parameters:
  // key, key, skeleton, key, key, skeleton.
  nicknameOwners: sql<{ user_id: string; by_key: number | boolean }>(
    `SELECT user_id, nickname_key = ? AS by_key FROM nicknames WHERE nickname_key = ? OR skeleton = ?
     UNION SELECT user_id, nickname_key = ? FROM nickname_claims WHERE nickname_key = ? OR skeleton = ?`,
  ),
  claimNickname: sql(
    `INSERT INTO nickname_claims (nickname_key, user_id, skeleton) VALUES (?, ?, ?)
     ON CONFLICT DO NOTHING`,
  ),
  upsertNickname: sql(
    `INSERT INTO nicknames (user_id, nickname, nickname_key, skeleton, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET nickname = excluded.nickname,
       nickname_key = excluded.nickname_key, skeleton = excluded.skeleton, updated_at = excluded.updated_at`,
  ),
  userCollege: sql<{ college: string | null }>('SELECT college FROM users WHERE id = ?'),

  owner: sql<ConfessionOwnerRow>(
    'SELECT author_id, deleted_at, college, posted_seq FROM confessions WHERE id = ?',
  ),
  /** Parameters: viewer, id. */
  card: sql<ConfessionRow>(`SELECT ${CARD_COLUMNS} FROM confessions WHERE id = ? AND deleted_at IS NULL`),
  counts: sql<CountsRow>(`SELECT ${COUNT_COLUMNS} FROM confessions WHERE id = ? AND deleted_at IS NULL`),
  insertConfession: sql(
    `INSERT INTO confessions (id, author_id, nickname, content, emotion_tag, college, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ),
  // Waiting for the publisher, oldest first (confessions_unpublished_idx, migration 0012: only the few
  // posted in the last seconds, and any a stopped process left unsent).
  unpublished: sql<UnpublishedRow>(
    `SELECT author_id, ${CARD_FIELDS} FROM confessions WHERE posted_seq IS NULL AND deleted_at IS NULL
      ORDER BY created_at, id`,
  ),
  /** Parameters: seq, id. Changes nothing when another publisher (another process) was first. */
  markPublished: sql(
    'UPDATE confessions SET posted_seq = ? WHERE id = ? AND posted_seq IS NULL AND deleted_at IS NULL',
  ),
  softDelete: sql(
    `UPDATE confessions SET deleted_at = ?, content = '', comment_count = 0, relatable_count = 0,
       funny_count = 0, feel_you_count = 0, share_worthy_count = 0 WHERE id = ? AND deleted_at IS NULL`,
  ),
  deleteReactionsOf: sql('DELETE FROM confession_reactions WHERE confession_id = ?'),
  deleteCommentsOf: sql('DELETE FROM confession_comments WHERE confession_id = ?'),
  deleteNoticesOf: sql('DELETE FROM confession_reaction_notices WHERE confession_id = ?'),
  // Changes a row the first time this user adds this reaction to this confession: only then is the author told.
  noteReactionNotice: sql(
    `INSERT INTO confession_reaction_notices (confession_id, user_id, reaction_type) VALUES (?, ?, ?)
     ON CONFLICT DO NOTHING`,
  ),

  addReaction: sql(
    `INSERT INTO confession_reactions (confession_id, user_id, reaction_type, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  ),
  removeReaction: sql(
    'DELETE FROM confession_reactions WHERE confession_id = ? AND user_id = ? AND reaction_type = ?',
  ),
  /** Parameter: id. A counter never goes below 0, whatever the rows say. */
  countUp: perType((column) => `UPDATE confessions SET ${column} = ${column} + 1 WHERE id = ?`),
  countDown: perType(
    (column) => `UPDATE confessions SET ${column} = ${column} - 1 WHERE id = ? AND ${column} > 0`,
  ),
  /** Parameters: confession id, user id. */
  myReactionsOn: sql<{ reaction_type: ReactionType }>(
    'SELECT reaction_type FROM confession_reactions WHERE confession_id = ? AND user_id = ?',
  ),

  commentAuthor: sql<{ author_id: string; confession_id: string }>(
    'SELECT author_id, confession_id FROM confession_comments WHERE id = ?',
  ),
  /** Parameters: viewer, id. */
  comment: sql<CommentRow>(
    `SELECT author_id = ? AS is_mine, id, confession_id, nickname, content, created_at
       FROM confession_comments WHERE id = ?`,
  ),
  insertComment: sql(
    `INSERT INTO confession_comments (id, confession_id, author_id, nickname, content, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ),
  bumpComments: sql('UPDATE confessions SET comment_count = comment_count + 1 WHERE id = ?'),
};
