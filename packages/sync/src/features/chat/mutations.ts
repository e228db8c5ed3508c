import type { MessageStatus } from '@campus/protocol';
import type { CampusDatabase } from '../../database';
import { defineMutation, type MutationClients, type Refusal } from '../../feature-contract';

/**
 * The chat mutations' client side. A refused send turns its message 'failed' with the reason (Retry and
 * Discard stay); a refused read mark or reaction puts back what its write changed.
 * The undo shapes keep their `kind`, as rows queued by earlier versions stored it.
 */

/** The statuses this mark changed; on a refusal those still 'read' go back and count as unread again. */
export interface ReadUndo {
  kind: 'read';
  partnerId: string;
  statuses: Record<string, MessageStatus>;
}

/** Only this user's own reaction before the change: others' reactions may have changed since. */
export interface ReactionUndo {
  kind: 'reaction';
  messageId: string;
  userId: string;
  previous: string | null;
}

export const sendMessage = defineMutation('send_message', {
  rollback: async ({ db, frame, error }) => {
    await db.messages.update(frame.id, { status: 'failed', error });
  },
});

export const sendGroupMessage = defineMutation('send_group_message', {
  rollback: async ({ db, frame, error }) => {
    await db.groupMessages.update(frame.id, { status: 'failed', error });
  },
});

export const markMessagesRead = defineMutation<'mark_messages_as_read', ReadUndo>('mark_messages_as_read', {
  rollback: async ({ db, undo }) => {
    if (undo?.kind === 'read') await undoRead(db, undo);
  },
});

export const chatReaction = defineMutation<'chat-reaction', ReactionUndo>('chat-reaction', {
  rollback: async (refusal) => {
    if (refusal.undo?.kind === 'reaction') await undoReaction(refusal, refusal.undo);
  },
});

export const chatMutations = {
  send_message: sendMessage,
  send_group_message: sendGroupMessage,
  mark_messages_as_read: markMessagesRead,
  'chat-reaction': chatReaction,
} satisfies Partial<MutationClients>;

/** Messages still 'read' go back to what they were and count as unread again, on top of today's count. */
async function undoRead(db: CampusDatabase, undo: ReadUndo): Promise<void> {
  const ids = Object.keys(undo.statuses);
  const rows = await db.messages.bulkGet(ids);
  let restored = 0;
  for (const row of rows) {
    const previous = row ? undo.statuses[row.id] : undefined;
    if (!row || !previous || row.status !== 'read') continue;
    await db.messages.update(row.id, { status: previous });
    restored += 1;
  }
  const conversation = await db.conversations.get(undo.partnerId);
  if (conversation && restored)
    await db.conversations.update(undo.partnerId, { unreadCount: conversation.unreadCount + restored });
}

/**
 * Puts back only this user's own reaction. A newer reaction of theirs to the same message still queued
 * decides what it is, so then nothing is touched; others' reactions are never touched.
 */
async function undoReaction(
  { db, key }: Refusal<'chat-reaction', ReactionUndo>,
  undo: ReactionUndo,
): Promise<void> {
  // Rows queued before this fix kept a different undo: leave their message alone.
  if (typeof undo.userId !== 'string') return;
  const newer = await db.outbox
    .where('key')
    .above(key)
    .filter((r) => r.frame.type === 'chat-reaction' && r.frame.messageId === undo.messageId)
    .count();
  if (newer) return;
  const message = await db.messages.get(undo.messageId);
  if (!message) return;
  const others = message.reactions.filter((r) => r.userId !== undo.userId);
  const reactions = undo.previous ? [...others, { emoji: undo.previous, userId: undo.userId }] : others;
  await db.messages.update(undo.messageId, { reactions });
}
