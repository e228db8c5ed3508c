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
