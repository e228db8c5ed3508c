import type * as Y from 'yjs';
import { NOTES_FRAME_LIMITS } from '@campus/protocol';

/**
 * Yjs keeps the parts of an update whose dependencies have not arrived in `store.pendingStructs` and
 * `store.pendingDs`, retries them on every later update, sends them to every joiner (encodeStateAsUpdate
 * includes them) and would store them at compaction. Nothing a notes client does needs them for long: a
 * client that typed while reconnecting resends everything in its sync step 2. So they are held briefly,
 * counted, and dropped.
 */
export function pendingBytes(doc: Y.Doc): number {
  const { pendingStructs, pendingDs } = doc.store;
  return (pendingStructs?.update.byteLength ?? 0) + (pendingDs?.byteLength ?? 0);
}

/** Drops whatever is pending and says how many bytes that was. */
export function dropPending(doc: Y.Doc): number {
  const bytes = pendingBytes(doc);
  doc.store.pendingStructs = null;
  doc.store.pendingDs = null;
  return bytes;
}

const timers = new WeakMap<Y.Doc, NodeJS.Timeout>();

/**
 * After an update was applied: if something is pending and no drop is scheduled, drop it once it has waited
 * NOTES_FRAME_LIMITS.pendingMaxMs (whatever is pending then, which is at most maxPendingBytes).
 */
export function schedulePendingDrop(doc: Y.Doc, onDrop: (bytes: number) => void): void {
  if (pendingBytes(doc) === 0 || timers.has(doc)) return;
  const timer = setTimeout(() => {
    timers.delete(doc);
    const bytes = dropPending(doc);
    if (bytes > 0) onDrop(bytes);
  }, NOTES_FRAME_LIMITS.pendingMaxMs);
  // A pending drop never keeps the process alive on its own.
  timer.unref();
  timers.set(doc, timer);
}

/** The document is being destroyed: nothing left to drop. */
export function cancelPendingDrop(doc: Y.Doc): void {
  clearTimeout(timers.get(doc));
  timers.delete(doc);
}
