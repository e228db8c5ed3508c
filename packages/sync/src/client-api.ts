import type {
  CallClientFrame,
  CallServerFrame,
  MessageErrorFrame,
  RandomClientFrame,
  RandomServerFrame,
  UserRef,
} from '@campus/protocol';
import type { CampusDatabase, LocalConfession } from './database';
import type { ConnectionStatus, NetworkSignal, RealtimeTiming } from './realtime-connection';
import type { ClientWrite } from './writer';

export type { ConnectionStatus };

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
 * The features' REST loads into the cache. History is a page n (from 1) of 30, newest first on the wire;
 * it resolves with how many messages the page had (under 30 means no more).
 */
export interface FeatureLoaders {
  loadDirectPage(partnerId: string, page: number): Promise<number>;
  loadGroupPage(groupId: string, page: number): Promise<number>;
  /**
   * Stores confessions loaded through REST (the caller sets feedOrder), keeping this device's queued
   * reactions, comments and deletions on top of the server's rows so a reload never hides a write not yet
   * delivered. The feed renders `db.confessions`; live changes keep it current after that.
   */
  cacheConfessions(rows: readonly LocalConfession[]): Promise<void>;
  /**
   * `GET /api/notifications` into db.notifications (a mark still queued here stays read). Resolves with
   * the unread count as this device sees it; rejects with 'Failed to load notifications'. Also run after
   * every sync_reset, whose snapshot carries no notifications.
   */
  loadNotifications(): Promise<number>;
  /**
   * Friends, incoming friend requests and blocks through REST into db.friends, db.friendRequests and
   * db.blocks (what this device queued and has not sent yet stays on top). Also run after every sync_reset.
   * Rejects when a request fails; the screens show the spec's texts.
   */
  loadFriends(): Promise<void>;
  /**
   * A page of call history (`GET /api/users/call-logs`, newest first; the first page without `before`)
   * into db.callLogs. Resolves with the cursor of the next, older page (null at the end); rejects with
   * 'Failed to fetch call logs.'. The first page is also loaded after every sync_reset.
   */
  loadCallLogs(before?: string): Promise<{ nextBefore: string | null }>;
}

/**
 * Call signalling on the realtime session: ephemeral, never queued. The call layer is its one user.
 */
export interface CallSignalsApi {
  /** Sends a call frame now; false when the session is not live (a call never waits for the connection). */
  sendCallFrame(frame: CallClientFrame): boolean;
  /** Every call frame the server sends this device, as it arrives. Returns the unsubscribe. */
  onCallFrame(listener: (frame: CallServerFrame) => void): () => void;
}

/**
 * Random and focused talk on the realtime session (queues, rooms, relayed text, signalling): ephemeral, never
 * queued. The random screens are its users.
 */
export interface RandomSignalsApi {
  /** Sends a random-talk frame now; false when the session is not live (nothing waits for the connection). */
  sendRandomFrame(frame: RandomClientFrame): boolean;
  /** Every random-talk frame the server sends this device, as it arrives. Returns the unsubscribe. */
  onRandomFrame(listener: (frame: RandomServerFrame) => void): () => void;
}

/** Chat's rooms open on screen (the chat feature keeps them; the engine only sends what they say). */
export interface OpenRoomsApi {
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
}

/**
 * What the features add to the engine's client: their REST loads, chat's open rooms, call signalling and
 * random talk.
 */
export type FeatureApi = FeatureLoaders & OpenRoomsApi & CallSignalsApi & RandomSignalsApi;

/**
 * The local-first client: owns the user's Dexie database, the realtime connection, the outbox and the
 * sync cursor. Screens read Dexie through live queries and write through `run`; every write is applied
 * locally at once and delivered exactly once when the connection allows.
 */
export interface SyncClient extends FeatureLoaders, OpenRoomsApi, CallSignalsApi, RandomSignalsApi {
  readonly db: CampusDatabase;
  readonly userId: string;
  /** Connects (and keeps reconnecting) until stop(). */
  start(): void;
  stop(): Promise<void>;

  getState(): EphemeralState;
  /** For useSyncExternalStore: called whenever getState() would return a new object. */
  subscribe(listener: () => void): () => void;
  /**
   * `message_error` frames (refused events and rejected writes, after their rollback), for the views that
   * show them: `code` to branch on, `error` to display, `context` the frame type (e.g. 'confession_comment').
   */
  onMessageError(listener: (error: MessageErrorFrame) => void): () => void;

  /**
   * The one write entry: runs a feature's optimistic write (`writeDirectMessage`, `writeConfessionPost`, …
   * from @campus/sync) against the local database, which queues its mutation in the same transaction, then
   * sends the queue when live. Resolves with the write's result (e.g. the new message's id) once in Dexie.
   */
  run<A extends unknown[], R>(write: ClientWrite<A, R>, ...args: A): Promise<R>;

  /** Ephemeral events: sent only while connected, dropped otherwise. */
  typing(target: TypingTarget): void;
  stopTyping(target: TypingTarget): void;
}
