import { CHAT } from '../chat/constants';

const CONNECTIONS_PER_MEMBER = 4;
const AWARENESS_CLIENTS_PER_CONNECTION = 4;

/**
 * Group notes: one Yjs document per group, synced over `/notes/{groupId}` (see realtime/constants.ts for the
 * path and sub-protocols). Its frames are Yjs binary sync messages, not JSON, so they have no zod schema;
 * these limits are the contract both ends enforce instead.
 */
export const NOTES = {
  /** The Y.Text every client binds its editor to. */
  textName: 'notes',
  /** The whole encoded document. Past it the server refuses further edits and closes with `closeTooLarge`. */
  maxDocBytes: 1024 * 1024,
  /** The textarea's length limit: even at 4 bytes a character this stays well inside `maxDocBytes`. */
  maxChars: 100_000,
  /**
   * One edit (a paste) travels as one WebSocket frame, and the server accepts edits up to 64 KiB (only a
   * sync step 2 may be larger); 15,000 characters of 4-byte UTF-8 plus Yjs headers still fit.
   */
  maxEditChars: 15_000,
  /**
   * Close code for a document over `maxDocBytes`, and for a frame over its size limit (an edit over
   * `NOTES_FRAME_LIMITS.maxFrameBytes`, a sync over `maxSyncFrameBytes`): a 44xx code, so y-websocket stops
   * reconnecting instead of resending the same frame forever.
   */
  closeTooLarge: 4413,
  /**
   * Close code for a frame the server cannot decode within `NOTES_FRAME_LIMITS` (unknown message type,
   * non-minimal varint, a count or length past the bounds, trailing bytes, an awareness message over its caps).
   * A 44xx code: a client that sends such a frame is broken or hostile, and reconnecting would not help.
   */
  closeMalformed: 4400,
  /**
   * Close code for a connection over its frame, byte, awareness, sync-request or new-client-id rate. A 45xx
   * code, so y-websocket reconnects with its backoff: a burst is not a reason to stop editing for good.
   */
  closeRateLimited: 4529,
  /**
   * Close code for an update whose missing dependencies would leave more than `maxPendingBytes` waiting.
   * A 45xx code: a legitimate client that typed while reconnecting resends everything in its sync step 2.
   */
  closeUnresolved: 4522,
} as const;

/**
 * What the server accepts on the notes socket. Frames are y-protocols messages (0 sync with sub-types 0, 1, 2;
 * 1 awareness) carrying Yjs v1 updates rooted at `NOTES.textName`. Every varint must be minimal; every count must
 * fit in the bytes that follow it, so nothing in a frame can make Yjs pre-allocate more than a few times its size.
 */
export const NOTES_FRAME_LIMITS = {
  /** An edit (sync update) or an awareness message; larger ones are refused with `closeTooLarge`. */
  maxFrameBytes: 64 * 1024,
  /**
   * A sync step 1 or 2: what a client sends once per connection. Step 2 carries every edit made offline, so
   * it may be as large as the document itself (a step 1 grows with the document's client ids).
   */
  maxSyncFrameBytes: NOTES.maxDocBytes + 64,
  /**
   * The WebSocket frame limit of the notes socket (ws maxPayload; `/ws` keeps 64 KiB). Twice the document, so
   * an oversized sync still reaches the decoder and is refused with `closeTooLarge` rather than the transport's
   * 1009, which y-websocket would answer by reconnecting and resending it forever.
   */
  maxTransportFrameBytes: 2 * NOTES.maxDocBytes,
  /** Structs (edits) in one update; a 15,000-character paste is one struct. */
  maxStructsPerFrame: 16_384,
  /** Nesting depth of one `any` value (map/array content). */
  maxAnyDepth: 16,
  /** Updates whose dependencies have not arrived are held at most this many bytes and this long, then dropped. */
  maxPendingBytes: 16 * 1024,
  pendingMaxMs: 2_000,
  /** One client's awareness state (cursor, name), as JSON. */
  maxAwarenessBytes: 4 * 1024,
  /**
   * Live notes sockets one member may hold on one group's notes (tabs, devices). Past it the upgrade is refused
   * with an HTTP 429, which y-websocket retries: without it one member could fill everyone's awareness.
   */
  maxConnectionsPerMember: CONNECTIONS_PER_MEMBER,
  /**
   * Client ids one connection may announce as its own (a real client has one). Relayed states of clients that
   * another live connection announced are never counted here and never applied.
   */
  maxAwarenessClientsPerConnection: AWARENESS_CLIENTS_PER_CONNECTION,
  /**
   * Entries in one awareness message. y-websocket relays every state it sees back to the server, so a member's
   * message can list everyone present: every member of the largest group, each with all the connections and
   * client ids allowed (1,600 entries of at least 4 bytes still fit in `maxFrameBytes`).
   */
  maxAwarenessEntriesPerMessage:
    CHAT.maxGroupMembers * CONNECTIONS_PER_MEMBER * AWARENESS_CLIENTS_PER_CONNECTION,
  /**
   * Client ids the server has not seen yet, in one update: a client sends its own, or in a sync step 2 the
   * ids of its offline sessions (every page load edits under a new id). Each costs a few hundred bytes of
   * server memory and can never be removed. As many as a member's burst below: a student who edited offline
   * across 17 reloads must still be able to sync (a smaller cap refused that sync step 2 for good, 4400).
   */
  maxNewClientsPerFrame: 64,
  /** New client ids one member may add to one group's notes: a burst, refilled at `perSecond` (16 an hour). */
  newClientsPerMember: { burst: 64, perSecond: 16 / 3600 },
  /** Client ids one document may hold in all: about 3.5 MB of server memory. */
  maxDocClients: 10_000,
  /**
   * A deletion-only edit may take the document this far over `NOTES.maxDocBytes` (a deletion can split text
   * and grow the encoding), so full notes can always be shortened.
   */
  deleteReserveBytes: 64 * 1024,
  /** `/notes` upgrades per member: 20 a minute. A refusal is an HTTP 429, which y-websocket retries. */
  upgrades: { burst: 20, perSecond: 20 / 60 },
  /** Per connection, token buckets: a burst of `burst`, refilled at `perSecond`. */
  frames: { burst: 200, perSecond: 100 },
  /** Room for a whole document (`maxDocBytes`) at once, then four full frames a second. */
  bytes: { burst: 2 * 1024 * 1024, perSecond: 256 * 1024 },
  awarenessBytes: { burst: 16 * 1024, perSecond: 4 * 1024 },
  /** Sync step 1 makes the server encode the whole document back: a client sends one per connection. */
  syncRequests: { burst: 3, perSecond: 0.1 },
} as const;

export const NOTES_MSG = {
  title: 'Group notes',
  membersOnly: 'Only group members can see these notes.',
  synced: 'Synced',
  offline: 'Offline — changes are saved on this device',
  connecting: 'Connecting…',
  tooLarge: 'These notes are too large to sync. Shorten them to keep editing together.',
  editTooLarge: 'That edit is too large. Paste at most 15,000 characters at a time.',
  refused: 'You cannot open these notes.',
  /** Server answers to a notes request that is not a proper upgrade. */
  subprotocolMissing: 'The notes socket needs the campus-notes sub-protocol.',
  upgradeRequired: 'The notes endpoint only accepts WebSocket upgrades.',
} as const;

/** The server's document name for a group's notes. */
export function notesDocName(groupId: string): string {
  return `group:${groupId}`;
}
