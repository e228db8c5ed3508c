import {
  CONFESSIONS,
  REACTION_TYPES,
  type ConfessionComment,
  type FeedResponse,
  type ReactionType,
} from '@campus/protocol';
import type { Transactor } from '../../realtime/transaction';
import { refusals } from './errors';
import { feedQ } from './feed-queries';
import { toComment, toConfession } from './mappers';
import { q } from './queries';

export interface FeedRequest {
  viewerId: string;
  /** The viewer's own college (display name): 'Your College (n)' counts it. */
  viewerCollege: string | null;
  page: number;
  limit: number;
  /** Narrows the page to this college. */
  college?: string | undefined;
}

/**
 * How deep the feed scrolls: OFFSET walks the index row by row, so a bot asking for page 10,000 would cost
 * a scan of half a million rows per request. 500 pages of 10 is far more than anyone scrolls.
 */
export const MAX_FEED_OFFSET = 5000;

/**
 * A feed page, newest first, in five queries whatever the page size: the page, the two tab counts, the
 * viewer's own reactions on the page and the newest comments of each card. Read under the engine's write
 * lock (`Transactor.read`), so never in the middle of another commit.
 */
export function feedPage(transactor: Transactor, request: FeedRequest): Promise<FeedResponse> {
  const { viewerId: viewer, limit } = request;
  const offset = (request.page - 1) * limit;
  return transactor.read(async (tx) => {
    const rows =
      offset >= MAX_FEED_OFFSET
        ? []
        : request.college === undefined
          ? await tx.all(feedQ.feedAll, viewer, viewer, limit, offset)
          : await tx.all(feedQ.feedCollege, viewer, request.college, viewer, limit, offset);
    const total = (await tx.first(feedQ.totalAll))?.n ?? 0;
    const college = request.viewerCollege;
    const collegeTotal =
      college === null ? 0 : ((await tx.first(feedQ.totalCollege, college, `c:${college}`))?.n ?? 0);

    const ids = rows.map((r) => r.id);
    const reactionsIn = feedQ.myReactionsIn(ids);
    const mine = new Map<string, Set<ReactionType>>();
    for (const r of rows.length ? await tx.all(reactionsIn.text, viewer, ...reactionsIn.params) : []) {
      let set = mine.get(r.confession_id);
      if (!set) mine.set(r.confession_id, (set = new Set()));
      set.add(r.reaction_type);
    }
    const comments = new Map<string, ConfessionComment[]>();
    const commentsIn = feedQ.newestComments(ids);
    const commentRows = rows.length
      ? await tx.all(commentsIn.text, viewer, ...commentsIn.params, CONFESSIONS.commentsPerCard)
      : [];
    // Oldest first on the card, by the precise stored time.
    commentRows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    for (const row of commentRows) {
      let list = comments.get(row.confession_id);
      if (!list) comments.set(row.confession_id, (list = []));
      list.push(toComment(row));
    }

    return {
      confessions: rows.map((row) => {
        const reacted = mine.get(row.id);
        return toConfession(
          row,
          reacted ? REACTION_TYPES.filter((t) => reacted.has(t)) : [],
          comments.get(row.id) ?? [],
        );
      }),
      total,
      collegeTotal,
    };
  });
}

/**
 * The comments panel: page 1 holds the newest `commentsPageSize` comments, page 2 the ones before them;
 * each page is in reading order (oldest first). `total` is the confession's comment count.
 */
export function commentsPage(
  transactor: Transactor,
  viewerId: string,
  confessionId: string,
  page: number,
): Promise<{ comments: ConfessionComment[]; total: number }> {
  return transactor.read(async (tx) => {
    const card = await tx.first(q.card, viewerId, confessionId);
    if (!card) throw refusals.notFound();
    const limit = CONFESSIONS.commentsPageSize;
    const offset = (page - 1) * limit;
    const rows = await tx.all(feedQ.commentsPage, viewerId, confessionId, limit, offset);
    return { comments: rows.reverse().map(toComment), total: card.comment_count };
  });
}
