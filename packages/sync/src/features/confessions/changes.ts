import type { ChangeAppliers } from '../../feature-contract';
import { applyCounts } from './cache';

/**
 * How confession changes land in the cached feed (`db.confessions`), which the feed renders with a live
 * query: new cards on top, deletions, the author's own marks and counts, all through the change log.
 */
export const confessionChanges = {
  confession_posted: async ({ db }, { confession }) => {
    const current = await db.confessions.get(confession.id);
    if (!current) {
      // A new card goes on top of the cached feed, as the server orders newest first.
      const top = await db.confessions.orderBy('feedOrder').first();
      await db.confessions.put({ ...confession, feedOrder: (top?.feedOrder ?? 0) - 1 });
      return;
    }
    // This device's own post (or a card loaded meanwhile): the server's card, with what only this device
    // knows kept (its place, that it is mine, my reactions, counts and comments already newer), and delivered.
    const { pending: _pending, ...local } = current;
    await db.confessions.put({
      ...confession,
      feedOrder: local.feedOrder,
      isMine: local.isMine || confession.isMine,
      myReactions: local.myReactions,
      reactions: local.reactions,
      commentCount: local.commentCount,
      comments: local.comments,
    });
  },
  confession_mine: async ({ db }, change) => {
    await db.confessions.update(change.confessionId, { isMine: true });
  },
  confession_deleted: async ({ db }, change) => {
    await db.confessions.delete(change.confessionId);
  },
  confession_counts: async ({ db }, change) => {
    await applyCounts(db, change.confessionId, change);
  },
} satisfies Partial<ChangeAppliers>;
