import { NOTES, NOTES_FRAME_LIMITS } from '@campus/protocol';
import { FrameReader, MalformedFrame } from './frame-reader';
import { MAX_CLIENT_ID, walkUpdate, type ClockOf, type DeletedIn, type UpdateSummary } from './update-walker';

/** y-protocols message types (y-websocket) and sync sub-types (y-protocols/sync). */
const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;
const SYNC_STEP_1 = 0;
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

/** One entry of an awareness message: a client's state at a clock (`state`: its JSON text, length first). */
export interface AwarenessEntry {
  client: number;
  clock: number;
  state: Uint8Array;
  /** The state is JSON null: the client left. */
  removed: boolean;
}

export type NotesFrame =
  | { kind: 'sync-request' }
  /** Sync step 2 or an update: content for the document. */
  | ({ kind: 'update'; bytes: number } & UpdateSummary)
  | { kind: 'awareness'; entries: AwarenessEntry[] };

const tooLarge = (what: string) => new MalformedFrame(`${what} too large`, NOTES.closeTooLarge);

/**
 * Decodes one frame of the notes socket completely, with the limits of NOTES_FRAME_LIMITS, before Yjs sees
 * it. Accepts exactly what y-websocket's provider sends over a socket: sync (step 1, step 2, update) and
 * awareness. Auth (2) is never asked for and query-awareness (3) only travels over BroadcastChannel, so both
 * are refused. Throws MalformedFrame for anything else; a frame must end where its message ends.
 */
export function decodeNotesFrame(frame: Uint8Array, clockOf: ClockOf, deletedIn?: DeletedIn): NotesFrame {
  if (frame.byteLength > NOTES_FRAME_LIMITS.maxSyncFrameBytes) throw tooLarge('frame');
  const reader = new FrameReader(frame);
  const type = reader.varUint();
  let decoded: NotesFrame;
  if (type === MESSAGE_SYNC) {
    decoded = decodeSync(reader, clockOf, deletedIn);
  } else if (type === MESSAGE_AWARENESS) {
    if (frame.byteLength > NOTES_FRAME_LIMITS.maxFrameBytes) throw tooLarge('awareness');
    decoded = decodeAwareness(reader.varBytes());
  } else {
    throw new MalformedFrame('unknown message type');
  }
  if (!reader.done) throw new MalformedFrame('trailing bytes');
  return decoded;
}

/**
 * An awareness frame another node relayed (REDIS_URL), held to exactly the limits of a client's awareness
 * frame: anything else (a sync message above all, which would be walked as an update) is refused.
 */
export function decodeAwarenessFrame(frame: Uint8Array): AwarenessEntry[] {
  if (frame[0] !== MESSAGE_AWARENESS) throw new MalformedFrame('not an awareness message');
  const decoded = decodeNotesFrame(frame, () => 0);
  if (decoded.kind !== 'awareness') throw new MalformedFrame('not an awareness message');
  return decoded.entries;
}

function decodeSync(reader: FrameReader, clockOf: ClockOf, deletedIn?: DeletedIn): NotesFrame {
  const step = reader.varUint();
  // Only a sync (step 1 or 2, once per connection) may exceed an edit's size: step 2 carries offline edits.
  if (step === SYNC_UPDATE && reader.bytes.byteLength > NOTES_FRAME_LIMITS.maxFrameBytes) {
    throw tooLarge('edit');
  }
  const payload = reader.varBytes();
  if (step === SYNC_STEP_1) {
    checkStateVector(payload);
    return { kind: 'sync-request' };
  }
  if (step !== SYNC_STEP_2 && step !== SYNC_UPDATE) throw new MalformedFrame('unknown sync message');
  return { kind: 'update', bytes: payload.byteLength, ...walkUpdate(payload, clockOf, deletedIn) };
}

/** A state vector (Y.encodeStateVector): a count of (client, clock) pairs. */
function checkStateVector(payload: Uint8Array): void {
  const reader = new FrameReader(payload);
  const entries = reader.count(2);
  for (let i = 0; i < entries; i++) {
    reader.varUint(MAX_CLIENT_ID);
    reader.varUint();
  }
  if (!reader.done) throw new MalformedFrame('trailing bytes in state vector');
}

/**
 * An awareness update (y-protocols/awareness encodeAwarenessUpdate): a count of (client, clock, JSON state).
 * The state is parsed here because applyAwarenessUpdate's JSON.parse would throw on the server otherwise.
 * Which entries are applied is the guard's decision (see awareness-owners.ts).
 */
function decodeAwareness(payload: Uint8Array): NotesFrame {
  const reader = new FrameReader(payload);
  const count = reader.count(3);
  if (count > NOTES_FRAME_LIMITS.maxAwarenessEntriesPerMessage) {
    throw new MalformedFrame('too many awareness clients');
  }
  const entries: AwarenessEntry[] = [];
  for (let i = 0; i < count; i++) {
    const client = reader.varUint(MAX_CLIENT_ID);
    const clock = reader.varUint();
    const start = reader.pos;
    const parsed = reader.jsonString(false);
    const state = payload.subarray(start, reader.pos);
    if (state.byteLength > NOTES_FRAME_LIMITS.maxAwarenessBytes) {
      throw new MalformedFrame('awareness state too large');
    }
    entries.push({ client, clock, state, removed: parsed === null });
  }
  if (!reader.done) throw new MalformedFrame('trailing bytes in awareness');
  return { kind: 'awareness', entries };
}
