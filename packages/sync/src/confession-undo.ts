import type { CampusDatabase, OutboxRow, OutboxUndo } from './database';
import { withReaction } from './confession-state';
import { setNotificationRead } from './notifications';

/** Rollback of the refused confession and notification writes (called inside the refuse transaction). */
export async function rollbackConfessionWrite(db: CampusDatabase, row: OutboxRow): Promise<void> {
  const { frame, undo } = row;
  switch (frame.type) {
    case 'confession_react':
      if (undo?.kind === 'confessionReaction') await undoConfessionReaction(db, row, undo);
      return;
    case 'confession_comment': {
      const card = await db.confessions.get(frame.confessionId);
      // Only a card still holding the optimistic comment counted it (a reloaded card never did).
      if (!card?.comments.some((c) => c.id === frame.id)) return;
      await db.confessions.put({
        ...card,
        comments: card.comments.filter((c) => c.id !== frame.id),
        commentCount: Math.max(0, card.commentCount - 1),
      });
      return;
    }
    case 'confession_post':
      await db.confessions.delete(frame.id);
      return;
    case 'mark_notification_read':
      if (undo?.kind === 'notificationRead' && !undo.wasRead)
        await setNotificationRead(db, undo.notificationId, false);
      return;
    default:
      return;
  }
}

/**
 * Puts back exactly the viewer's state for that reaction type before this write. When a later write of
 * the same type is still queued, that one decides the state: it inherits this write's "before" instead
 * (this one never happened), so rejecting both in turn still ends at the state before the first.
 */
async function undoConfessionReaction(
  db: CampusDatabase,
  row: OutboxRow,
  undo: Extract<OutboxUndo, { kind: 'confessionReaction' }>,
): Promise<void> {
  const next = await db.outbox
    .where('key')
    .above(row.key ?? 0)
    .filter(
      (r) =>
        r.frame.type === 'confession_react' &&
        r.frame.confessionId === undo.confessionId &&
        r.frame.reactionType === undo.reactionType,
    )
    .first();
  if (next?.key !== undefined) {
    if (next.undo?.kind === 'confessionReaction')
      await db.outbox.update(next.key, { undo: { ...next.undo, wasOn: undo.wasOn } });
    return;
  }
  const card = await db.confessions.get(undo.confessionId);
  if (card) await db.confessions.put(withReaction(card, undo.reactionType, undo.wasOn));
}
