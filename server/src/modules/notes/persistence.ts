import * as Y from 'yjs';
import { setPersistence, type WSSharedDoc } from '@y/websocket-server/utils';
import { NOTES } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import { cancelPendingDrop, dropPending, pendingBytes } from './pending';
import type { NotesStore } from './store';

/** More rows than this for one group and they are folded into a single snapshot row. */
export const COMPACT_AFTER_ROWS = 200;

export interface NotesBinding {
  store: NotesStore;
  log: Logger;
  groupId: string;
}

interface BoundDoc extends NotesBinding {
  rows: number;
  /** Bytes stored for the group: exact right after a compaction, an upper bound of the state size between. */
  bytes: number;
}

/**
 * @y/websocket-server keeps its documents and its persistence hook in module globals. The route names the
 * store of its own server here just before handing a socket over, so bindState (called with the document
 * name only) finds the right database even when tests run several servers in one process.
 */
const bindings = new Map<string, NotesBinding>();
const bound = new WeakMap<Y.Doc, BoundDoc>();
let installed = false;

export function registerNotesDoc(docName: string, binding: NotesBinding): void {
  bindings.set(docName, binding);
  if (installed) return;
  installed = true;
  setPersistence({ provider: null, bindState, writeState });
}

/** Pending structs are never stored: they wait in memory only (see pending.ts), so drop them first. */
function compact(doc: Y.Doc, state: BoundDoc): void {
  if (!state.store.isOpen) return;
  const dropped = dropPending(doc);
  if (dropped > 0)
    state.log.warn({ groupId: state.groupId, bytes: dropped }, 'notes: dropped pending updates');
  const snapshot = Y.encodeStateAsUpdate(doc);
  state.store.compact(state.groupId, snapshot);
  state.rows = 1;
  state.bytes = snapshot.byteLength;
}

/** Loads every stored update into the fresh document, then appends each later update as a row. */
function bindState(docName: string, doc: WSSharedDoc): void {
  const binding = bindings.get(docName);
  if (!binding) return;
  const updates = binding.store.load(binding.groupId);
  if (updates.length) Y.applyUpdate(doc, Y.mergeUpdates(updates));
  // Rows saved before pending structs were dropped at compaction may hold some; they can never resolve.
  const stale = dropPending(doc);
  if (stale > 0)
    binding.log.warn({ groupId: binding.groupId, bytes: stale }, 'notes: dropped stored pending');
  const state: BoundDoc = {
    ...binding,
    rows: updates.length,
    bytes: updates.reduce((sum, update) => sum + update.byteLength, 0),
  };
  bound.set(doc, state);
  doc.on('update', (update: Uint8Array) => {
    try {
      if (!state.store.isOpen) return;
      state.store.append(state.groupId, update);
      state.rows += 1;
      state.bytes += update.byteLength;
      if (state.rows > COMPACT_AFTER_ROWS) compact(doc, state);
    } catch (err) {
      state.log.error({ err, groupId: state.groupId }, 'storing a notes update failed');
    }
  });
}

/** Called when the last connection of a document closes: leave the group with one compact row. */
function writeState(docName: string, doc: WSSharedDoc): Promise<void> {
  const state = bound.get(doc);
  cancelPendingDrop(doc);
  // The next connection registers again right before it opens the document anew.
  if (state && bindings.get(docName)?.store === state.store) bindings.delete(docName);
  try {
    if (state && state.rows > 1) compact(doc, state);
  } catch (err) {
    state?.log.error({ err, groupId: state.groupId }, 'compacting notes failed');
  }
  return Promise.resolve();
}

/**
 * Whether a frame of `incomingBytes` could push the document past NOTES.maxDocBytes. Pending bytes count too,
 * since they would be sent to every joiner. The running byte count over-estimates (deleted text stays
 * counted until the next compaction), so compact once before refusing.
 */
export function wouldExceedDocLimit(doc: Y.Doc, incomingBytes: number): boolean {
  const state = bound.get(doc);
  if (!state) return false;
  if (state.bytes + pendingBytes(doc) + incomingBytes <= NOTES.maxDocBytes) return false;
  compact(doc, state);
  return state.bytes + pendingBytes(doc) + incomingBytes > NOTES.maxDocBytes;
}
