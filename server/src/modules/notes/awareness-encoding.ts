import type { Awareness } from 'y-protocols/awareness';
import { NOTES_FRAME_LIMITS } from '@campus/protocol';
import type { AwarenessEntry } from './frame-decoder';

/** lib0 writeVarUint. */
function pushVarUint(out: number[], n: number): void {
  while (n > 0x7f) {
    out.push(0x80 | (n & 0x7f));
    n = Math.floor(n / 128);
  }
  out.push(n);
}

/** The awareness update carrying only `entries`, as y-protocols' encodeAwarenessUpdate would write it. */
export function awarenessUpdateOf(entries: AwarenessEntry[]): Uint8Array {
  const count: number[] = [];
  pushVarUint(count, entries.length);
  const parts: Uint8Array[] = [Uint8Array.from(count)];
  for (const entry of entries) {
    const head: number[] = [];
    pushVarUint(head, entry.client);
    pushVarUint(head, entry.clock);
    parts.push(Uint8Array.from(head), entry.state);
  }
  return Buffer.concat(parts);
}

/** The awareness frame (message type 1) carrying only `entries`. */
export function awarenessFrameOf(entries: AwarenessEntry[]): Uint8Array {
  const update = awarenessUpdateOf(entries);
  const prefix: number[] = [1];
  pushVarUint(prefix, update.byteLength);
  return Buffer.concat([Uint8Array.from(prefix), update]);
}

/** Bytes an entry adds to a message: what the per-connection awareness rate charges. */
export const entryBytes = (entry: AwarenessEntry) => entry.state.byteLength + 10;

/**
 * A client's entry as the awareness holds it now (its removal once the state is gone). The state is
 * JSON.stringify'd again, as y-protocols does for every broadcast: null when the entry cannot be encoded
 * within maxAwarenessBytes (numbers like 1e20 grow when written again), since no node would accept it.
 */
export function entryOf(awareness: Awareness, client: number): AwarenessEntry | null {
  const meta = awareness.meta.get(client);
  if (!meta) return null;
  const state: unknown = awareness.states.get(client) ?? null;
  const json = Buffer.from(JSON.stringify(state));
  // As in a decoded entry: the JSON with its length in front (lib0 writeVarString).
  const length: number[] = [];
  pushVarUint(length, json.byteLength);
  const bytes = Buffer.concat([Uint8Array.from(length), json]);
  if (bytes.byteLength > NOTES_FRAME_LIMITS.maxAwarenessBytes) return null;
  return { client, clock: meta.clock, state: bytes, removed: state === null };
}

/** Varints of a client id and a clock, at most: an entry's share of a frame besides its state. */
const ENTRY_HEAD_BYTES = 16;
/** The frame's type, length and count varints. */
const FRAME_HEAD_BYTES = 16;

/**
 * `entries` in frames a notes client could have sent: each within maxFrameBytes and
 * maxAwarenessEntriesPerMessage, so the receiving node decodes them with the client frames' own limits.
 */
export function awarenessFramesOf(entries: AwarenessEntry[]): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let batch: AwarenessEntry[] = [];
  let bytes = FRAME_HEAD_BYTES;
  for (const entry of entries) {
    const size = entry.state.byteLength + ENTRY_HEAD_BYTES;
    const full =
      bytes + size > NOTES_FRAME_LIMITS.maxFrameBytes ||
      batch.length === NOTES_FRAME_LIMITS.maxAwarenessEntriesPerMessage;
    if (full && batch.length > 0) {
      frames.push(awarenessFrameOf(batch));
      batch = [];
      bytes = FRAME_HEAD_BYTES;
    }
    batch.push(entry);
    bytes += size;
  }
  if (batch.length > 0) frames.push(awarenessFrameOf(batch));
  return frames;
}
