import {
  conversationSnippet,
  type ConversationItem,
  type DirectMessage,
  type GroupMessage,
  type UserRef,
} from '@campus/protocol';
import type { CampusDatabase, LocalConversation } from '../../database';

export function displayName(user: UserRef): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

/** The partner of a direct message as seen by `selfId`. */
export function directPartner(message: DirectMessage, selfId: string): UserRef {
  return message.from.id === selfId ? message.to : message.from;
}

/** The message a conversation row is being told about: its text, time and server seq (none while pending). */
interface Noted {
  content: string;
  timestamp: string;
  seq?: number | undefined;
}

/**
 * Whether `message` becomes the row's snippet. Server order decides, never timestamps (device clocks may
 * be off by minutes): a stored message wins when its seq is at or past the row's, and an own message that is
 * still pending (no seq) always does, as the chat shows it at the bottom.
 */
function isNewest(current: LocalConversation, message: Noted): boolean {
  if (message.seq === undefined) return true;
  return current.lastSeq === undefined || message.seq >= current.lastSeq;
}

/**
 * The time a pending message moves its row to: the device's time, but always above the newest row, so a slow
 * device clock cannot leave a chat I just wrote in below the others (the server's time replaces it once stored).
 */
async function pendingTime(db: CampusDatabase, timestamp: string): Promise<string> {
  const top = await db.conversations.orderBy('lastMessageTimestamp').last();
  const newest = top?.lastMessageTimestamp ? Date.parse(top.lastMessageTimestamp) : NaN;
  const own = Date.parse(timestamp);
  return !Number.isNaN(newest) && newest >= own ? new Date(newest + 1).toISOString() : timestamp;
}

/**
 * The spec's conversation-list rule for a new message: snippet and time follow the newest message (so
 * the list, ordered by time, moves it to the top), unread rises for a new one from someone else, and a
 * missing entry is created.
 */
async function touchConversation(
  db: CampusDatabase,
  fresh: Omit<ConversationItem, 'lastMessageSnippet' | 'lastMessageTimestamp' | 'unreadCount'>,
  message: Noted,
  unreadIncrement: number,
): Promise<void> {
  const current = await db.conversations.get(fresh.id);
  const newest = !current || isNewest(current, message);
  const latest: Partial<LocalConversation> = newest
    ? {
        lastMessageSnippet: conversationSnippet(message.content),
        lastMessageTimestamp:
          message.seq === undefined ? await pendingTime(db, message.timestamp) : message.timestamp,
        ...(message.seq === undefined ? {} : { lastSeq: message.seq }),
      }
    : {};
  if (!current) {
    await db.conversations.put({
      ...fresh,
      lastMessageSnippet: '',
      lastMessageTimestamp: message.timestamp,
      unreadCount: unreadIncrement,
      ...latest,
    });
    return;
  }
  await db.conversations.put({
    ...current,
    // The server's copy names the partner even when the optimistic row could not (a chat opened by link).
    ...(fresh.name ? { name: fresh.name, avatarUrl: fresh.avatarUrl } : {}),
    ...latest,
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
    message,
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
    message,
    unread,
  );
}

/** `count` of a conversation's messages became read: its unread count goes down by as many, never below 0. */
export async function lowerUnread(db: CampusDatabase, conversationId: string, count: number): Promise<void> {
  const row = await db.conversations.get(conversationId);
  if (row)
    await db.conversations.update(conversationId, { unreadCount: Math.max(0, row.unreadCount - count) });
}
