import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import type {
  ConversationItem,
  DirectMessage,
  Group,
  GroupMessage,
  MessageStatus,
  MutationFrame,
  UserListEntry,
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
 * What a queued write changed optimistically beyond its own row, so a reject can put it back.
 * Sends need none: their message row itself turns 'failed'.
 */
export type OutboxUndo =
  /** The statuses this mark changed; on a reject those still 'read' go back and count as unread again. */
  | { kind: 'read'; partnerId: string; statuses: Record<string, MessageStatus> }
  /** Only this user's own reaction before the change: others' reactions may have changed since. */
  | { kind: 'reaction'; messageId: string; userId: string; previous: string | null };

/** A queued write. `key` orders the queue; (deviceId, mid) is what the server deduplicates on. */
export interface OutboxRow {
  key?: number;
  deviceId: string;
  mid: number;
  frame: MutationFrame;
  createdAt: number;
  /** Set once the frame went out on the current connection (sent again after a reconnect). */
  sentAt?: number;
  undo?: OutboxUndo;
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
  /** Filled by the confessions, notifications and friends features. */
  confessions: EntityTable<{ id: string }, 'id'>;
  notifications: EntityTable<{ id: string }, 'id'>;
  friends: EntityTable<{ id: string }, 'id'>;
};

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
  return db;
}

export async function deleteUserDatabase(userId: string): Promise<void> {
  await Dexie.delete(databaseName(userId));
}
