import { ANON, type ReactionType } from '@campus/protocol';
import { syncTables, type LocalConfession } from '../../database';
import type { Writer } from '../../writer';
import { confessionComment, confessionDelete, confessionPost, confessionReact } from './mutations';
import { withReaction } from './state';

/**
 * The confession feature's optimistic writes, run through `client.run(write, ...args)`. Each changes the
 * cached card and queues its mutation in one transaction; a refusal undoes the change (mutations.ts).
 */

/** Who the viewer is on an optimistic card or comment (the server fills in the real values). */
export interface ConfessionAuthor {
  /** The viewer's nickname; 'Anon' when none is given. */
  nickname?: string | null;
  /** The viewer's college, shown on the card and used by the 'Your College' tab. */
  college?: string | null;
}

const now = (): string => new Date().toISOString();

export async function writeConfessionReaction(
  w: Writer,
  confessionId: string,
  reactionType: ReactionType,
  on: boolean,
): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const row = await w.db.confessions.get(confessionId);
    if (row) await w.db.confessions.put(withReaction(row, reactionType, on));
    const undo = row
      ? {
          kind: 'confessionReaction' as const,
          confessionId,
          reactionType,
          wasOn: row.myReactions.includes(reactionType),
        }
      : undefined;
    await confessionReact.enqueue(w, { type: 'confession_react', confessionId, reactionType, on }, undo);
  });
}

/** Appends the comment to the cached card (newest last) with a client id the server keeps. */
export async function writeConfessionComment(
  w: Writer,
  confessionId: string,
  content: string,
  author: ConfessionAuthor = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const row = await w.db.confessions.get(confessionId);
    if (row) {
      const comment = {
        id,
        confessionId,
        nickname: author.nickname || ANON,
        content,
        createdAt: now(),
        isMine: true,
      };
      await w.db.confessions.put({
        ...row,
        comments: [...row.comments, comment],
        commentCount: row.commentCount + 1,
      });
    }
    await confessionComment.enqueue(w, { type: 'confession_comment', id, confessionId, content });
  });
  return id;
}

/**
 * A new card on top of the cached feed (feedOrder below every other), the viewer's own, pending until the
 * server acknowledges it. Resolves with its id, which the server keeps.
 */
export async function writeConfessionPost(
  w: Writer,
  content: string,
  emotionTag: string,
  author: ConfessionAuthor = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const top = await w.db.confessions.orderBy('feedOrder').first();
    const card: LocalConfession = {
      id,
      content,
      emotionTag,
      college: author.college ?? null,
      createdAt: now(),
      imageUrl: null,
      nickname: author.nickname || ANON,
      reactions: { relatable: 0, funny: 0, feelYou: 0, shareWorthy: 0 },
      myReactions: [],
      commentCount: 0,
      comments: [],
      isMine: true,
      feedOrder: (top?.feedOrder ?? 0) - 1,
      pending: true,
    };
    await w.db.confessions.put(card);
    await confessionPost.enqueue(w, { type: 'confession_post', id, content, emotionTag });
  });
  return id;
}

/** The author deletes their confession: the card leaves the feed at once and comes back if refused. */
export async function writeConfessionDelete(w: Writer, confessionId: string): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const card = await w.db.confessions.get(confessionId);
    if (card) await w.db.confessions.delete(confessionId);
    const undo = card ? { kind: 'confessionDelete' as const, card } : undefined;
    await confessionDelete.enqueue(w, { type: 'confession_delete', confessionId }, undo);
  });
}
