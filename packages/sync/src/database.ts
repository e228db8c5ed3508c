import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import type {
  AppNotification,
  CallLog,
  Confession,
  ConversationItem,
  DirectMessage,
  FriendRequest,
  Group,
  GroupMessage,
  MutationFrame,
  UserListEntry,
  UserRef,
} from '@campus/protocol';

/** A small key/value table: the sync cursor, the device id and mutation counter, the cached profile. */
export interface MetaRow {
  key: string;
  value: unknown;
}

/** A direct message as cached: the wire shape plus the partner's id, so one chat is one index range. */
export type LocalDirectMessage = DirectMessage & {
  /** The other participant (to for own messages, from for theirs). */
  peerId: string;
  /** Why the server refused it, when status is 'failed'. */
  error?: string;
};

export type LocalGroupMessage = GroupMessage & { error?: string };

/**
 * A conversation as cached: the wire shape plus the seq of the server message its snippet shows. Server
 * order decides which message is the newest, never device clocks (a device's clock may be minutes off).
 */
export type LocalConversation = ConversationItem & { lastSeq?: number };

/**
 * A notification as cached: the wire shape plus `unread` (1 when not read), because IndexedDB cannot index
 * booleans; the unread badge is `notifications.where('unread').equals(1).count()`. Kept in step with isRead.
 */
export type LocalNotification = AppNotification & { unread: 0 | 1 };

/**
 * A confession as cached: the wire shape plus `feedOrder`, set by whoever stores it. The feed shows rows in
 * ASCENDING feedOrder (e.g. (page - 1) * 10 + index for a loaded page); an optimistic post takes one less
 * than the smallest, so it shows on top. `pending` is true while this device's post of it is still queued
 * (not yet acknowledged), so the card can show a clock instead of looking delivered.
 */
export type LocalConfession = Confession & { feedOrder: number; pending?: boolean };

/** Someone the user blocked, as cached (the blocker's own list; keyed by their user id). */
export type LocalBlock = UserRef & { blockedAt: string };

/** A queued write. `key` orders the queue; (deviceId, mid) is what the server deduplicates on. */
export interface OutboxRow {
  key?: number;
  deviceId: string;
  mid: number;
  frame: MutationFrame;
  createdAt: number;
  /** Set once the frame went out on the current connection (sent again after a reconnect). */
  sentAt?: number;
  /**
   * What the write changed optimistically beyond its own row, so a refusal can put it back. Its shape belongs
   * to the feature that defined the mutation (see defineMutation); the engine only stores it.
   */
  undo?: unknown;
}

/**
 * The signed-in user's local cache. One database per user so that two accounts on one machine never see
 * each other's data; deleted on logout. Screens read it through live queries.
 */
export type CampusDatabase = Dexie & {
  meta: EntityTable<MetaRow, 'key'>;
  users: EntityTable<UserListEntry, 'id'>;
  conversations: EntityTable<LocalConversation, 'id'>;
  messages: EntityTable<LocalDirectMessage, 'id'>;
  groups: EntityTable<Group, 'id'>;
  groupMessages: EntityTable<LocalGroupMessage, 'id'>;
  outbox: EntityTable<OutboxRow, 'key'>;
  confessions: EntityTable<LocalConfession, 'id'>;
  notifications: EntityTable<LocalNotification, 'id'>;
  /** The user's friends (their public cards); online comes from live presence, not from here. */
  friends: EntityTable<UserRef, 'id'>;
  /** Pending friend requests to the user. */
  friendRequests: EntityTable<FriendRequest, 'id'>;
  blocks: EntityTable<LocalBlock, 'id'>;
  /** The user's calls as the server logged them (call history reads it newest first, offline too). */
  callLogs: EntityTable<CallLog, 'id'>;
};

/** Every table a change or a write may touch, so one transaction covers a whole page and its cursor. */
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
    db.friends,
    db.friendRequests,
    db.blocks,
    db.callLogs,
  ];
}

export function databaseName(userId: string): string {
  return `campus-talk-${userId}`;
}

/** `dexieOptions` lets tests give each simulated device its own IndexedDB factory. */
export function openUserDatabase(userId: string, dexieOptions?: DexieOptions): CampusDatabase {
  const db = new Dexie(databaseName(userId), dexieOptions) as CampusDatabase;
  db.version(1).stores({
    meta: 'key',
    users: 'id',
  });
  db.version(2).stores({
    meta: 'key',
    users: 'id',
    conversations: 'id, lastMessageTimestamp',
    messages: 'id, [peerId+timestamp], status',
    groups: 'id',
    groupMessages: 'id, [group+timestamp]',
    outbox: '++key, [deviceId+mid]',
    confessions: 'id',
    notifications: 'id',
    friends: 'id',
  });
  // v3: server order (seq) within a chat, and outbox lookup by message id (a stored own message settles it).
  db.version(3).stores({
    messages: 'id, [peerId+timestamp], [peerId+seq], status',
    groupMessages: 'id, [group+timestamp], [group+seq]',
    outbox: '++key, [deviceId+mid], frame.id',
  });
  // v4: a group chat finds its pending and failed messages (no seq yet) without reading the whole group.
  db.version(4).stores({
    groupMessages: 'id, [group+timestamp], [group+seq], status',
  });
  // v5: the notifications panel (newest first, unread count) and the confessions feed read by index.
  // Rows cached before (if any) get the new keys, so no index skips them.
  db.version(5)
    .stores({
      confessions: 'id, feedOrder, createdAt',
      notifications: 'id, createdAt, unread',
    })
    .upgrade(async (tx) => {
      await tx
        .table<Partial<LocalNotification>>('notifications')
        .toCollection()
        .modify((row) => {
          row.isRead = row.isRead === true;
          row.unread = row.isRead ? 0 : 1;
        });
      await tx
        .table<Partial<LocalConfession>>('confessions')
        .toCollection()
        .modify((row) => {
          if (typeof row.feedOrder !== 'number') row.feedOrder = -(Date.parse(row.createdAt ?? '') || 0);
        });
    });
  // v6: friends (by name for the list's sort), incoming friend requests (newest first) and blocks. The
  // `friends` table of v2 was a placeholder nothing wrote to.
  db.version(6).stores({
    friends: 'id, firstName',
    friendRequests: 'id, createdAt',
    blocks: 'id',
  });
  // v7: call history, newest first by the time the call was placed.
  db.version(7).stores({
    callLogs: 'id, startedAt',
  });
  return db;
}

export async function deleteUserDatabase(userId: string): Promise<void> {
  await Dexie.delete(databaseName(userId));
}
