import { ANON, type ConfessionComment } from '@campus/protocol';
import { syncTables, type CampusDatabase, type LocalConfession, type OutboxRow } from '../../database';
import type { ConfessionReactionUndo } from './mutations';
import { withReaction } from './state';

/**
 * Rows loaded through REST (`client.cacheConfessions`), stored so that this device's writes still queued
 * stay visible: the server has not seen them yet (or their ack was lost, when re-applying them changes
 * nothing). A card whose deletion is queued here stays gone.
 */
export async function storeConfessions(db: CampusDatabase, rows: readonly LocalConfession[]): Promise<void> {
  await db.transaction('rw', syncTables(db), async () => {
    const queued = await db.outbox.toArray();
    const deleted = new Set(
      queued.flatMap(({ frame }) => (frame.type === 'confession_delete' ? [frame.confessionId] : [])),
    );
    const kept = rows.filter((row) => !deleted.has(row.id));
    const cached = await db.confessions.bulkGet(kept.map((row) => row.id));
    await db.confessions.bulkPut(kept.map((row, i) => withQueued(row, queued, cached[i]?.comments ?? [])));
  });
}

/**
 * `confession_counts`: the server's absolute counts replace the card's, then this device's reactions and
 * comments still queued go back on top (the server has not counted them yet). The viewer's reactions the
 * server knows are those before the first queued reaction of each type (its undo's `wasOn`).
 */
export async function applyCounts(
  db: CampusDatabase,
  confessionId: string,
  counts: Pick<LocalConfession, 'reactions' | 'commentCount'>,
): Promise<void> {
  const card = await db.confessions.get(confessionId);
  if (!card) return;
  const queued = (await db.outbox.toArray()).filter(
    ({ frame }) =>
      (frame.type === 'confession_react' || frame.type === 'confession_comment') &&
      frame.confessionId === confessionId,
  );
  const queuedComments = new Set(
    queued.flatMap(({ frame }) => (frame.type === 'confession_comment' ? [frame.id] : [])),
  );
  const serverKnown = new Set(card.myReactions);
  const decided = new Set<string>();
  for (const { frame, undo } of queued) {
    if (frame.type !== 'confession_react' || decided.has(frame.reactionType)) continue;
    decided.add(frame.reactionType);
    const before = undo as ConfessionReactionUndo | undefined;
    if (before?.kind !== 'confessionReaction') continue;
    if (before.wasOn) serverKnown.add(frame.reactionType);
    else serverKnown.delete(frame.reactionType);
  }
  const base: LocalConfession = {
    ...card,
    reactions: counts.reactions,
    commentCount: counts.commentCount,
    myReactions: card.myReactions
      .filter((type) => serverKnown.has(type))
      .concat([...serverKnown].filter((type) => !card.myReactions.includes(type))),
    comments: card.comments.filter((c) => !queuedComments.has(c.id)),
  };
  await db.confessions.put(withQueued(base, queued, card.comments));
}

function withQueued(
  server: LocalConfession,
  queued: readonly OutboxRow[],
  cachedComments: readonly ConfessionComment[],
): LocalConfession {
  let row = server;
  for (const { frame } of queued) {
    if (frame.type === 'confession_react' && frame.confessionId === row.id) {
      row = withReaction(row, frame.reactionType, frame.on);
    } else if (frame.type === 'confession_comment' && frame.confessionId === row.id) {
      if (row.comments.some((c) => c.id === frame.id)) continue;
      // The optimistic comment as it was shown (with the viewer's nickname), else rebuilt from the frame.
      const comment = cachedComments.find((c) => c.id === frame.id) ?? {
        id: frame.id,
        confessionId: row.id,
        nickname: ANON,
        content: frame.content,
        createdAt: new Date().toISOString(),
        isMine: true,
      };
      row = { ...row, comments: [...row.comments, comment], commentCount: row.commentCount + 1 };
    }
  }
  return row;
}
