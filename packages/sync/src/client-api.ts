import type { MessageErrorFrame, ReactionType, UserRef } from '@campus/protocol';
import type { ConfessionAuthor } from './confession-writes';
import type { LocalConfession } from './database';
import type { CampusDatabase } from './database';
import type { NetworkSignal, RealtimeTiming } from './realtime-connection';

export type ConnectionStatus = 'connecting' | 'online' | 'offline';

/** A direct chat is addressed by the partner's id, a group by its id. */
export type TypingTarget = { roomId: string } | { groupId: string };

/** In-memory state that is never stored: presence, the online count and who is typing where. */
export interface EphemeralState {
  status: ConnectionStatus;
  /** Online people among those the user talks with. */
  online: ReadonlySet<string>;
  /** Students online now, once the server has said. */
  onlineCount: number | null;
  /** Who is typing: key `u:<partnerId>` (that partner) or `g:<groupId>` (user ids). */
  typing: ReadonlyMap<string, readonly string[]>;
  /** Last-active times learnt from `user_offline`. */
  lastActive: ReadonlyMap<string, string>;
  /** Set when the server refused the session for good (4401 signed out, 4426 app outdated): no more retries. */
  refusedCode?: number;
}

export interface SyncClientOptions {
  /** The signed-in user as optimistic rows show them. */
  self: UserRef;
  /** The session token, sent in the `hello` frame (never in the URL). */
  token: string;
  /** HTTP origin of the server ('' in the browser means the page's origin). */
  baseUrl: string;
  /** WebSocket URL of `/ws`. */
  wsUrl: string;
  /** Injected in tests: an open database, a WebSocket class (Node's global or a proxy), a fetch. */
  db?: CampusDatabase;
  WebSocketImpl?: typeof WebSocket;
  fetchImpl?: typeof fetch;
  /** Overrides of REALTIME_TIMING (tests shorten them). */
  timing?: Partial<RealtimeTiming>;
  /** The device's network state; defaults to the browser's online/offline events, null for none. */
  network?: NetworkSignal | null;
  /** Source of reconnect jitter (tests seed it). */
  random?: () => number;
}

/**
 * The local-first client: owns the user's Dexie database, the realtime connection, the outbox and the
 * sync cursor. Screens read Dexie through live queries and write through these methods; every write is
 * applied locally at once and delivered exactly once when the connection allows.
 */
export interface SyncClient {
  readonly db: CampusDatabase;
  readonly userId: string;
  /** Connects (and keeps reconnecting) until stop(). */
  start(): void;
  stop(): Promise<void>;

  getState(): EphemeralState;
  /** For useSyncExternalStore: called whenever getState() would return a new object. */
  subscribe(listener: () => void): () => void;
  /** `message_error` frames (refused events and rejected writes), for the views that show them. */
  onMessageError(listener: (error: MessageErrorFrame) => void): () => void;

  /** Writes (optimistic, queued). They resolve with the new message's id once it is in Dexie. */
  sendDirectMessage(to: UserRef, content: string, replyTo?: string | null): Promise<string>;
  sendGroupMessage(groupId: string, content: string): Promise<string>;
  markRead(partnerId: string, messageIds: readonly string[]): Promise<void>;
  react(messageId: string, emoji: string, toUserId: string): Promise<void>;
  /** Re-queues a failed message, or removes it. */
  retry(messageId: string): Promise<void>;
  discard(messageId: string): Promise<void>;

  /** Ephemeral events: sent only while connected, dropped otherwise. */
  typing(target: TypingTarget): void;
  stopTyping(target: TypingTarget): void;
  /**
   * The chat (or group) now open on screen. Remembered and sent again after every reconnect's pull, so the
   * server always knows it (presence of a new partner, a group's read mark). The returned function leaves
   * it (call it on unmount); a later join replaces it.
   */
  joinChat(peerId: string): () => void;
  joinGroup(groupId: string): () => void;
  /**
   * The open group was seen: its unread count goes to 0 here and join_group moves the server's read mark
   * (sent at most about once a second). While a group is open, its new messages do not count as unread.
   */
  markGroupSeen(groupId: string): Promise<void>;

  /**
   * History through REST, stored into Dexie: page n (from 1) of 30, newest first on the wire.
   * Resolves with how many messages the page had (under 30 means no more).
   */
  loadDirectPage(partnerId: string, page: number): Promise<number>;
  loadGroupPage(groupId: string, page: number): Promise<number>;
}

/**
 * The sync client with the confession and notification writes. A separate interface (for now) so that
 * existing SyncClient implementations (the web tests' fakes) keep compiling; createSyncClient returns it.
 * Fold it into SyncClient once those fakes implement the four methods.
 */
export interface CampusSyncClient extends SyncClient {
  /**
   * Confessions and notifications (optimistic, queued like the chat writes, delivered exactly once). They
   * change the cached rows in `db.confessions` / `db.notifications`; a refused write is undone and its
   * reason goes to onMessageError listeners (context = the frame type, e.g. 'confession_comment').
   * - reactConfession: the viewer's reaction of that type on or off (counts and myReactions move at once);
   *   a reject puts back exactly the viewer's state for that type before the call.
   * - commentConfession: appends a comment (client uuid, isMine, nickname or 'Anon') to the cached card and
   *   adds 1 to commentCount; resolves with the comment id. A reject removes it again.
   * - postConfession: a card (isMine, nickname or 'Anon') on top of the cached feed (smallest feedOrder);
   *   resolves with its id, which the server keeps. A reject removes it.
   * - markNotificationRead: isRead true (unread 0) at once; not sent again when already read here.
   */
  reactConfession(confessionId: string, reactionType: ReactionType, on: boolean): Promise<void>;
  commentConfession(confessionId: string, content: string, author?: ConfessionAuthor): Promise<string>;
  postConfession(content: string, emotionTag: string, author?: ConfessionAuthor): Promise<string>;
  markNotificationRead(notificationId: string): Promise<void>;

  /**
   * Stores confessions loaded through REST (the caller sets feedOrder), keeping this device's queued
   * reactions and comments on top of the server's rows so a reload never hides a write not yet delivered.
   */
  cacheConfessions(rows: readonly LocalConfession[]): Promise<void>;
  /**
   * `GET /api/notifications` into db.notifications (a mark still queued here stays read). Resolves with
   * the unread count as this device sees it; rejects with 'Failed to load notifications'. Also run after
   * every sync_reset, whose snapshot carries no notifications.
   */
  loadNotifications(): Promise<number>;
}
