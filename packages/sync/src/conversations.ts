import {
  conversationSnippet,
  type ConversationItem,
  type DirectMessage,
  type GroupMessage,
  type UserRef,
} from '@campus/protocol';
import type { CampusDatabase } from './database';

function time(value: string | null | undefined): number {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? -Infinity : ms;
}

export function displayName(user: UserRef): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

/** The partner of a direct message as seen by `selfId`. */
export function directPartner(message: DirectMessage, selfId: string): UserRef {
  return message.from.id === selfId ? message.to : message.from;
}

/**
 * The spec's conversation-list rule for a new message: snippet and time follow the newest message (so
 * the list, ordered by time, moves it to the top), unread rises for a new one from someone else, and a
 * missing entry is created.
 */
async function touchConversation(
  db: CampusDatabase,
  fresh: Omit<ConversationItem, 'lastMessageSnippet' | 'lastMessageTimestamp' | 'unreadCount'>,
  content: string,
  timestamp: string,
  unreadIncrement: number,
): Promise<void> {
  const current = await db.conversations.get(fresh.id);
  const newest = !current || time(timestamp) >= time(current.lastMessageTimestamp);
  if (!current) {
    await db.conversations.put({
      ...fresh,
      lastMessageSnippet: conversationSnippet(content),
      lastMessageTimestamp: timestamp,
      unreadCount: unreadIncrement,
    });
    return;
  }
  await db.conversations.put({
    ...current,
    // The server's copy names the partner even when the optimistic row could not (a chat opened by link).
    ...(fresh.name ? { name: fresh.name, avatarUrl: fresh.avatarUrl } : {}),
    ...(newest ? { lastMessageSnippet: conversationSnippet(content), lastMessageTimestamp: timestamp } : {}),
    unreadCount: current.unreadCount + unreadIncrement,
  });
}

export async function noteDirectMessage(
  db: CampusDatabase,
  selfId: string,
  message: DirectMessage,
  isNew: boolean,
): Promise<void> {
  const partner = directPartner(message, selfId);
  const unread = isNew && message.from.id !== selfId && message.status !== 'read' ? 1 : 0;
  await touchConversation(
    db,
    {
      id: partner.id,
      name: displayName(partner),
      avatarUrl: partner.profilePictureUrl,
      isGroup: false,
      email: null,
      lastActiveAt: null,
    },
    message.content,
    message.timestamp,
    unread,
  );
}

export async function noteGroupMessage(
  db: CampusDatabase,
  selfId: string,
  message: GroupMessage,
  isNew: boolean,
): Promise<void> {
  const group = await db.groups.get(message.group);
  const unread = isNew && message.from.id !== selfId ? 1 : 0;
  await touchConversation(
    db,
    {
      id: message.group,
      name: group?.name ?? '',
      avatarUrl: group?.avatarUrl ?? null,
      isGroup: true,
      email: null,
      lastActiveAt: null,
    },
    message.content,
    message.timestamp,
    unread,
  );
}

export async function setUnread(
  db: CampusDatabase,
  conversationId: string,
  unreadCount: number,
): Promise<void> {
  await db.conversations.update(conversationId, { unreadCount });
}
