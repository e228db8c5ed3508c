import type { Confession, ConfessionComment, ReactionCounts, ReactionType } from '@campus/protocol';
import type { CommentRow, ConfessionRow } from './rows';

type CountColumns = Pick<
  ConfessionRow,
  'relatable_count' | 'funny_count' | 'feel_you_count' | 'share_worthy_count'
>;

export function toCounts(row: CountColumns): ReactionCounts {
  return {
    relatable: row.relatable_count,
    funny: row.funny_count,
    feelYou: row.feel_you_count,
    shareWorthy: row.share_worthy_count,
  };
}

/**
 * A confession's or comment's time as it leaves the server: cut to the minute (the feed shows '2m ago').
 * A precise time would let someone who also got a message of the author's at that very millisecond tie the
 * two together; the stored time stays precise, for ordering.
 */
export function wireTime(stored: string): string {
  const time = new Date(stored);
  if (Number.isNaN(time.getTime())) return stored;
  time.setUTCSeconds(0, 0);
  return time.toISOString();
}

/** `is_mine` is 0/1 on SQLite, a boolean on PostgreSQL. */
const isMine = (row: { is_mine: number | boolean }) => Number(row.is_mine) === 1;

export function toComment(row: CommentRow): ConfessionComment {
  return {
    id: row.id,
    confessionId: row.confession_id,
    nickname: row.nickname,
    content: row.content,
    createdAt: wireTime(row.created_at),
    isMine: isMine(row),
  };
}

export function toConfession(
  row: ConfessionRow,
  myReactions: ReactionType[],
  comments: ConfessionComment[],
): Confession {
  return {
    id: row.id,
    content: row.content,
    emotionTag: row.emotion_tag,
    college: row.college,
    createdAt: wireTime(row.created_at),
    imageUrl: null,
    nickname: row.nickname,
    reactions: toCounts(row),
    myReactions,
    commentCount: row.comment_count,
    comments,
    isMine: isMine(row),
  };
}

/** The display name of a profile's college: a plain name, or a college object's `name`; blank is none. */
export function collegeName(value: unknown): string | null {
  const name = value && typeof value === 'object' && 'name' in value ? value.name : value;
  if (typeof name !== 'string') return null;
  return name.trim() || null;
}

/** users.college holds JSON (a name or a college object); an unparsable value is a bare name. */
export function storedCollegeName(column: string | null): string | null {
  if (column === null) return null;
  try {
    return collegeName(JSON.parse(column));
  } catch {
    return collegeName(column);
  }
}

/**
 * Nicknames are unique ignoring case, in any script, and ignoring compatibility forms (NFKC folds
 * full-width 'ａｌｅｘ' into 'alex'). Migrations 0005 and 0007 repeat this fold; change them together.
 * Look-alikes in other scripts are caught by `nicknameSkeleton` (skeleton.ts), checked beside this key.
 */
export function nicknameKey(nickname: string): string {
  return nickname.normalize('NFKC').toLowerCase();
}
