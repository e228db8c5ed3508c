/** The confession tables' rows as the module reads them. The author's id never leaves the server. */

/** A confession as the feed reads it: no author id, only whether the viewer wrote it. */
export interface ConfessionRow {
  id: string;
  nickname: string;
  content: string;
  emotion_tag: string;
  college: string | null;
  /** Precise (it orders the feed); sent truncated to the minute (mappers.ts `wireTime`). */
  created_at: string;
  relatable_count: number;
  funny_count: number;
  feel_you_count: number;
  share_worthy_count: number;
  comment_count: number;
  is_mine: number | boolean;
}

export interface CommentRow {
  id: string;
  confession_id: string;
  nickname: string;
  content: string;
  created_at: string;
  is_mine: number | boolean;
}

/** What ownership, idempotency and deletion need; stays on the server. */
export interface ConfessionOwnerRow {
  author_id: string;
  deleted_at: string | null;
  college: string | null;
  /**
   * The seq of its `confession_posted` change: NULL until the publisher sent it (publisher.ts), 0 when
   * sent before migration 0012 and no longer in the log (nothing to redact).
   */
  posted_seq: number | null;
}

/** A confession the publisher is about to announce: the card's columns and whose devices hear it is theirs. */
export type UnpublishedRow = Omit<ConfessionRow, 'is_mine'> & { author_id: string };
