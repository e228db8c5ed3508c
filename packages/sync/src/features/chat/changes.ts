import Dexie from 'dexie';
import type { Group } from '@campus/protocol';
import type { CampusDatabase } from '../../database';
import type { ChangeAppliers } from '../../feature-contract';
import { directTypingKey, groupTypingKey } from '../../ephemeral-state';
import { lowerUnread, noteDirectMessage, noteGroupMessage } from './conversations';
import { isUpgrade } from './message-status';
import { settleOwnSend, storeDirectMessages, storeGroupMessages } from './message-store';
import type { OpenView } from './open-rooms';

/**
 * How chat changes land in the cache (each inside the engine's page transaction). `view` is this client's
 * screen: a message of the group open there is seen as it arrives.
 */
export const chatChanges = (view: OpenView) =>
  ({
    receive_message: async (ctx, change) => {
      const { db, selfId } = ctx;
      // A stored message is ordered by its seq (the change's, should the message not carry it).
      const noted = { ...change.message, seq: change.message.seq ?? change.seq };
      const fresh = await storeDirectMessages(db, selfId, [noted]);
      await noteDirectMessage(db, selfId, noted, fresh.has(change.message.id));
      const from = change.message.from.id;
      if (from === selfId) await settleOwnSend(db, change.message.id);
      // A message from someone ends their typing indicator.
      ctx.afterCommit(() => ctx.clearTyping(directTypingKey(from), from));
    },
    receive_group_message: async (ctx, change) => {
      const { db, selfId } = ctx;
      const noted = { ...change.message, seq: change.message.seq ?? change.seq };
      const fresh = await storeGroupMessages(db, [noted]);
      const seen = view.openGroupId === change.message.group;
      await noteGroupMessage(db, selfId, noted, fresh.has(change.message.id) && !seen);
      const from = change.message.from.id;
      if (from === selfId) await settleOwnSend(db, change.message.id);
      ctx.afterCommit(() => ctx.clearTyping(groupTypingKey(change.message.group), from));
    },
    peer_read_messages: async ({ db, selfId }, change) => {
      const rows = await db.messages.bulkGet(change.messageIds);
      const upgraded = rows.flatMap((row) =>
        row && isUpgrade(row.status, change.status) ? [{ ...row, status: change.status }] : [],
      );
      if (upgraded.length) await db.messages.bulkPut(upgraded);
      if (change.readerId === selfId && change.status === 'read') {
        // I read them on another device: like the server, subtract what actually became read.
        const newlyRead = upgraded.filter((row) => row.from.id !== selfId).length;
        const conversationId = change.groupId ?? rows.find((r) => r)?.peerId ?? change.chatPartnerId;
        if (newlyRead) await lowerUnread(db, conversationId, newlyRead);
      }
    },
    'chat-reaction': async ({ db }, change) => {
      const row = await db.messages.get(change.messageId);
      if (!row) return;
      const others = row.reactions.filter((r) => r.userId !== change.fromUserId);
      const reactions = change.emoji
        ? [...others, { emoji: change.emoji, userId: change.fromUserId }]
        : others;
      await db.messages.put({ ...row, reactions });
    },
    group_joined: async ({ db }, change) => {
      await joinGroup(db, change.group);
    },
    group_read: async ({ db, selfId }, change) => {
      await groupReadUpTo(db, selfId, change.groupId, change.readSeq);
    },
  }) satisfies Partial<ChangeAppliers>;

/**
 * Read on another device up to `readSeq`: what is still unread here is what others sent after it (changes
 * apply in seq order, so normally nothing).
 */
async function groupReadUpTo(db: CampusDatabase, selfId: string, groupId: string, readSeq: number) {
  const conversation = await db.conversations.get(groupId);
  if (!conversation || conversation.unreadCount === 0) return;
  const after = await db.groupMessages
    .where('[group+seq]')
    .between([groupId, readSeq + 1], [groupId, Dexie.maxKey])
    .filter((m) => m.from.id !== selfId)
    .count();
  if (after < conversation.unreadCount) await db.conversations.update(groupId, { unreadCount: after });
}

async function joinGroup(db: CampusDatabase, group: Group): Promise<void> {
  await db.groups.put(group);
  const current = await db.conversations.get(group.id);
  await db.conversations.put({
    id: group.id,
    name: group.name,
    avatarUrl: group.avatarUrl,
    lastMessageSnippet: current?.lastMessageSnippet ?? '',
    // A new group sorts by its creation time until its first message.
    lastMessageTimestamp: current?.lastMessageTimestamp ?? group.createdAt,
    unreadCount: current?.unreadCount ?? 0,
    isGroup: true,
    email: null,
    lastActiveAt: null,
  });
}
