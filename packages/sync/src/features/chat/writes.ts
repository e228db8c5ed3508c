import { CHAT, type MessageStatus, type UserRef } from '@campus/protocol';
import { syncTables, type LocalDirectMessage, type LocalGroupMessage } from '../../database';
import type { Writer } from '../../writer';
import { noteDirectMessage, noteGroupMessage } from './conversations';
import { chatReaction, markMessagesRead, sendGroupMessage, sendMessage } from './mutations';

/**
 * The chat feature's optimistic writes, run through `client.run(write, ...args)`. Each applies its effect
 * to Dexie and queues its mutation in one transaction.
 */

const now = (): string => new Date().toISOString();

export async function writeDirectMessage(
  w: Writer,
  to: UserRef,
  content: string,
  replyTo: string | null = null,
): Promise<string> {
  const id = crypto.randomUUID();
  const message: LocalDirectMessage = {
    id,
    from: w.self,
    to,
    content,
    timestamp: now(),
    status: 'sending',
    attachmentUrl: null,
    attachmentType: null,
    replyTo,
    reactions: [],
    peerId: to.id,
  };
  await w.db.transaction('rw', syncTables(w.db), async () => {
    await w.db.messages.put(message);
    await noteDirectMessage(w.db, w.self.id, message, true);
    await sendMessage.enqueue(w, { type: 'send_message', id, to: to.id, content, replyTo });
  });
  return id;
}

export async function writeGroupMessage(w: Writer, groupId: string, content: string): Promise<string> {
  const id = crypto.randomUUID();
  const message: LocalGroupMessage = {
    id,
    from: w.self,
    group: groupId,
    content,
    timestamp: now(),
    attachmentUrl: null,
    attachmentType: null,
    status: 'sending',
  };
  await w.db.transaction('rw', syncTables(w.db), async () => {
    await w.db.groupMessages.put(message);
    await noteGroupMessage(w.db, w.self.id, message, true);
    await sendGroupMessage.enqueue(w, { type: 'send_group_message', id, groupId, content });
  });
  return id;
}

/** Marks the partner's messages read here at once; the unread badge clears as the spec's read event would. */
export async function writeMarkRead(
  w: Writer,
  partnerId: string,
  messageIds: readonly string[],
): Promise<void> {
  const unique = [...new Set(messageIds)];
  if (!unique.length) return;
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const conversation = await w.db.conversations.get(partnerId);
    for (let i = 0; i < unique.length; i += CHAT.maxReadBatch) {
      const batch = unique.slice(i, i + CHAT.maxReadBatch);
      const rows = await w.db.messages.bulkGet(batch);
      const statuses: Record<string, MessageStatus> = {};
      for (const row of rows) {
        if (!row || row.status === 'read' || row.from.id === w.self.id) continue;
        statuses[row.id] = row.status;
        await w.db.messages.update(row.id, { status: 'read' });
      }
      const undo = { kind: 'read' as const, partnerId, statuses };
      await markMessagesRead.enqueue(
        w,
        { type: 'mark_messages_as_read', messageIds: batch, chatPartnerId: partnerId },
        undo,
      );
    }
    if (conversation) await w.db.conversations.update(partnerId, { unreadCount: 0 });
  });
}

/** One reaction per user per message: a new emoji replaces this user's earlier one, '' takes it back. */
export async function writeReaction(
  w: Writer,
  messageId: string,
  emoji: string,
  toUserId: string,
): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const row = await w.db.messages.get(messageId);
    if (row) {
      const others = row.reactions.filter((r) => r.userId !== w.self.id);
      const reactions = emoji ? [...others, { emoji, userId: w.self.id }] : others;
      await w.db.messages.update(messageId, { reactions });
    }
    const previous = row?.reactions.find((r) => r.userId === w.self.id)?.emoji ?? null;
    const undo = row ? { kind: 'reaction' as const, messageId, userId: w.self.id, previous } : undefined;
    await chatReaction.enqueue(w, { type: 'chat-reaction', messageId, emoji, toUserId }, undo);
  });
}

/** A failed message goes back in the queue under a new mutation id (the server refused the old one). */
export async function writeRetry(w: Writer, messageId: string): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const direct = await w.db.messages.get(messageId);
    if (direct?.status === 'failed') {
      await w.db.messages.put({ ...withoutError(direct), status: 'sending' });
      const { id, peerId: to, content, replyTo } = direct;
      await sendMessage.enqueue(w, { type: 'send_message', id, to, content, replyTo });
      return;
    }
    const group = await w.db.groupMessages.get(messageId);
    if (group?.status === 'failed') {
      await w.db.groupMessages.put({ ...withoutError(group), status: 'sending' });
      const { id, group: groupId, content } = group;
      await sendGroupMessage.enqueue(w, { type: 'send_group_message', id, groupId, content });
    }
  });
}

/** Removes a failed message for good. Messages that may still be delivered are left alone. */
export async function writeDiscard(w: Writer, messageId: string): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    if ((await w.db.messages.get(messageId))?.status === 'failed') await w.db.messages.delete(messageId);
    if ((await w.db.groupMessages.get(messageId))?.status === 'failed')
      await w.db.groupMessages.delete(messageId);
  });
}

function withoutError<T extends { error?: string }>(row: T): T {
  const copy = { ...row };
  delete copy.error;
  return copy;
}
