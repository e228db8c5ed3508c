import type { Change, Group } from '@campus/protocol';
import Dexie from 'dexie';
import type { CampusDatabase } from './database';
import { lowerUnread, noteDirectMessage, noteGroupMessage } from './conversations';
import { isUpgrade } from './message-status';
import { settleOwnSend, storeDirectMessages, storeGroupMessages } from './message-store';
import { readCursor, writeCursor } from './meta';
import { setNotificationRead, storeNotification } from './notifications';

/** Every table a change may touch, so one transaction covers a whole page and its cursor. */
export function syncTables(db: CampusDatabase) {
  return [
    db.meta,
    db.conversations,
    db.messages,
    db.groups,
    db.groupMessages,
    db.outbox,
    db.users,
    db.confessions,
    db.notifications,
  ];
}

/**
 * Applies changes in seq order and advances the cursor in the same transaction, so a page is applied
 * whole or not at all. Changes at or below the cursor were applied before and are skipped: this is what
 * makes a re-sent page or a live push that the pull also returned harmless. `pageCursor` (a pull's answer)
 * may move the cursor past the last change. Returns the changes actually applied.
 */
export async function applyChanges(
  db: CampusDatabase,
  selfId: string,
  changes: readonly Change[],
  pageCursor?: number,
  view: OpenView = {},
): Promise<Change[]> {
  const ordered = [...changes].sort((a, b) => a.seq - b.seq);
  return db.transaction('rw', syncTables(db), async () => {
    let cursor = await readCursor(db);
    const applied: Change[] = [];
    for (const change of ordered) {
      if (change.seq <= cursor) continue;
      await applyChange(db, selfId, change, view);
      cursor = change.seq;
      applied.push(change);
    }
    const next = Math.max(cursor, pageCursor ?? 0);
    if (next !== (await readCursor(db))) await writeCursor(db, next);
    return applied;
  });
}

/** What is open on screen: messages of the open group are seen as they arrive, so they are not unread. */
export interface OpenView {
  openGroupId?: string | null;
}

async function applyChange(
  db: CampusDatabase,
  selfId: string,
  change: Change,
  view: OpenView,
): Promise<void> {
  switch (change.type) {
    case 'receive_message': {
      // A stored message is ordered by its seq (the change's, should the message not carry it).
      const noted = { ...change.message, seq: change.message.seq ?? change.seq };
      const fresh = await storeDirectMessages(db, selfId, [noted]);
      await noteDirectMessage(db, selfId, noted, fresh.has(change.message.id));
      if (change.message.from.id === selfId) await settleOwnSend(db, change.message.id);
      return;
    }
    case 'receive_group_message': {
      const noted = { ...change.message, seq: change.message.seq ?? change.seq };
      const fresh = await storeGroupMessages(db, [noted]);
      const seen = view.openGroupId === change.message.group;
      await noteGroupMessage(db, selfId, noted, fresh.has(change.message.id) && !seen);
      if (change.message.from.id === selfId) await settleOwnSend(db, change.message.id);
      return;
    }
    case 'peer_read_messages': {
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
      return;
    }
    case 'chat-reaction': {
      const row = await db.messages.get(change.messageId);
      if (!row) return;
      const others = row.reactions.filter((r) => r.userId !== change.fromUserId);
      const reactions = change.emoji
        ? [...others, { emoji: change.emoji, userId: change.fromUserId }]
        : others;
      await db.messages.put({ ...row, reactions });
      return;
    }
    case 'group_joined':
      await joinGroup(db, change.group);
      return;
    case 'notification_created':
      await storeNotification(db, change.notification);
      return;
    case 'notification_read':
      await setNotificationRead(db, change.notificationId, true);
      return;
    case 'notifications_deleted':
      await db.notifications.bulkDelete(change.notificationIds);
      return;
    case 'group_read':
      await groupReadUpTo(db, selfId, change.groupId, change.readSeq);
      return;
  }
}

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
