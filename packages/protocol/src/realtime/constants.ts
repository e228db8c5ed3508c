/** Timings of the realtime channel, shared by client and server. */
export const REALTIME_TIMING = {
  /** The server pings each quiet connection this often; the client pings too, to notice a dead link. */
  heartbeatMs: 10_000,
  /** A peer silent this long is dropped (the 30 s). */
  deadPeerMs: 30_000,
  /** The client gives a connection attempt this long to reach `welcome`. */
  connectTimeoutMs: 20_000,
  reconnectMinMs: 1_000,
  reconnectMaxMs: 5_000,
  /** How long the server waits for the `hello` frame after the upgrade. */
  helloTimeoutMs: 10_000,
  /**
   * A random-talk Find or a call offer that nothing has answered this long is sent again, marked `retry`.
   * With several nodes one node coordinates random talk and calls, and a frame forwarded to it as it crashes
   * is lost; its successor takes over once its 5 s lease has lapsed (the server's realtime/lease.ts), so this
   * is longer. A server answers within milliseconds otherwise.
   */
  unansweredRetryMs: 7_000,
} as const;

export const SYNC = {
  /** Changes per `changes` page of a pull. */
  pullPageSize: 1000,
  /** Conversations and messages per conversation a snapshot carries; older history loads on demand. */
  snapshotConversations: 50,
  snapshotMessagesPerConversation: 30,
} as const;

/** The realtime endpoint and the group-notes endpoint (`/notes/{groupId}`), on the same server. */
export const REALTIME_PATH = '/ws';
export const NOTES_PATH = '/notes';
/** Sec-WebSocket-Protocol values of the notes socket: `campus-notes` then `token.<session token>`. */
export const NOTES_SUBPROTOCOL = 'campus-notes';
export const NOTES_TOKEN_PREFIX = 'token.';

/**
 * WebSocket close codes the server uses; the client stops reconnecting on 4401 (signs out) and 4426,
 * reconnects at once (with a short jitter) on 1012, and retries every other code with its backoff.
 */
export const CLOSE_CODES = {
  unauthorized: 4401,
  forbidden: 4403,
  helloTimeout: 4408,
  protocolVersion: 4426,
  deadPeer: 4000,
  /** The user already has the most connections the server allows; the client retries with its backoff. */
  tooManyConnections: 4429,
  shuttingDown: 1001,
  /**
   * This node is draining (SIGTERM): reconnect now, the load balancer sends the next connection to another
   * node. The client waits only a random part of reconnectMinMs, not its backoff.
   */
  serviceRestart: 1012,
  /** The server failed (e.g. its database), not the session: retryable, never a sign-out. */
  serverError: 1011,
  /**
   * Mutations far over the user's rate: nothing more is read from this connection, and the client comes
   * back after its backoff, its unanswered outbox sent again (nothing refused or lost meanwhile).
   */
  rateLimited: 4529,
} as const;
