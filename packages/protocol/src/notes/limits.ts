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
   * One edit (a paste) travels as one WebSocket frame, and the server accepts frames up to 64 KiB on every
   * socket; 15,000 characters of 4-byte UTF-8 plus Yjs headers still fit.
   */
  maxEditChars: 15_000,
  /** Close code for a document over `maxDocBytes`: a 44xx code, so y-websocket stops reconnecting. */
  closeTooLarge: 4413,
  /**
   * Close code for a frame the server cannot decode within `NOTES_FRAME_LIMITS` (unknown message type,
   * non-minimal varint, a count or length past the bounds, trailing bytes, an awareness message over its caps).
   * A 44xx code: a client that sends such a frame is broken or hostile, and reconnecting would not help.
   */
  closeMalformed: 4400,
  /**
   * Close code for a connection over its frame, byte, awareness or sync-request rate. A 45xx code, so
   * y-websocket reconnects with its backoff: a burst is not a reason to stop editing for good.
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
  /** The server refuses larger WebSocket frames before they are read (ws maxPayload). */
  maxFrameBytes: 64 * 1024,
  /** Structs (edits) in one update; a 15,000-character paste is one struct. */
  maxStructsPerFrame: 16_384,
  /** Nesting depth of one `any` value (map/array content). */
  maxAnyDepth: 16,
  /** Updates whose dependencies have not arrived are held at most this many bytes and this long, then dropped. */
  maxPendingBytes: 16 * 1024,
  pendingMaxMs: 2_000,
  /** One awareness message (cursor, name), and the distinct client ids one connection may ever announce. */
  maxAwarenessBytes: 4 * 1024,
  maxAwarenessClientsPerConnection: 4,
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
