import type { ReactionType } from '@campus/protocol';
import type { CampusDatabase, LocalConfession } from '../../database';
import { defineMutation, type MutationClients, type Refusal } from '../../feature-contract';
import { withReaction } from './state';

/**
 * The confession mutations' client side: a refusal undoes exactly what the write changed on the cached
 * card; a post's ack clears its pending mark. Undo shapes keep their `kind` (rows queued by earlier versions).
 */

/** Whether the viewer had this reaction on before: a refusal puts exactly that back. */
export interface ConfessionReactionUndo {
  kind: 'confessionReaction';
  confessionId: string;
  reactionType: ReactionType;
  wasOn: boolean;
}

/** The card as it was before its author deleted it here: a refusal puts it back. */
export interface ConfessionDeleteUndo {
  kind: 'confessionDelete';
  card: LocalConfession;
}

export const confessionReact = defineMutation<'confession_react', ConfessionReactionUndo>(
  'confession_react',
  {
    rollback: async (refusal) => {
      if (refusal.undo?.kind === 'confessionReaction') await undoConfessionReaction(refusal, refusal.undo);
    },
  },
);

export const confessionComment = defineMutation('confession_comment', {
  rollback: async ({ db, frame }) => {
    const card = await db.confessions.get(frame.confessionId);
    // Only a card still holding the optimistic comment counted it (a reloaded card never did).
    if (!card?.comments.some((c) => c.id === frame.id)) return;
    await db.confessions.put({
      ...card,
      comments: card.comments.filter((c) => c.id !== frame.id),
      commentCount: Math.max(0, card.commentCount - 1),
    });
  },
});

export const confessionPost = defineMutation('confession_post', {
  rollback: async ({ db, frame }) => {
    await db.confessions.delete(frame.id);
  },
  // Delivered: the card no longer shows a clock.
  settled: async ({ db, frame }) => {
    await clearPending(db, frame.id);
  },
});

export const confessionDelete = defineMutation<'confession_delete', ConfessionDeleteUndo>(
  'confession_delete',
  {
    rollback: async ({ db, undo }) => {
      if (undo?.kind !== 'confessionDelete') return;
      // A card the server sent again meanwhile is newer than the copy kept here.
      if (!(await db.confessions.get(undo.card.id))) await db.confessions.put(undo.card);
    },
  },
);

export const confessionMutations = {
  confession_react: confessionReact,
  confession_comment: confessionComment,
  confession_post: confessionPost,
  confession_delete: confessionDelete,
} satisfies Partial<MutationClients>;

export async function clearPending(db: CampusDatabase, id: string): Promise<void> {
  const card = await db.confessions.get(id);
  if (!card?.pending) return;
  const { pending: _pending, ...delivered } = card;
  await db.confessions.put(delivered);
}

/**
 * Puts back exactly the viewer's state for that reaction type before this write. When a later write of
 * the same type is still queued, that one decides the state: it inherits this write's "before" instead
 * (this one never happened), so rejecting both in turn still ends at the state before the first.
 */
async function undoConfessionReaction(
  { db, key }: Refusal<'confession_react', ConfessionReactionUndo>,
  undo: ConfessionReactionUndo,
): Promise<void> {
  const next = await db.outbox
    .where('key')
    .above(key)
    .filter(
      (r) =>
        r.frame.type === 'confession_react' &&
        r.frame.confessionId === undo.confessionId &&
        r.frame.reactionType === undo.reactionType,
    )
    .first();
  if (next?.key !== undefined) {
    const later = next.undo as ConfessionReactionUndo | undefined;
    if (later?.kind === 'confessionReaction')
      await db.outbox.update(next.key, { undo: { ...later, wasOn: undo.wasOn } });
    return;
  }
  const card = await db.confessions.get(undo.confessionId);
  if (card) await db.confessions.put(withReaction(card, undo.reactionType, undo.wasOn));
}
