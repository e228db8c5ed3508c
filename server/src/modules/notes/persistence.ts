import * as Y from 'yjs';
import { setPersistence, type WSSharedDoc } from '@y/websocket-server/utils';
import { NOTES, NOTES_FRAME_LIMITS } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import { cancelPendingDrop, dropPending } from './pending';
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
  /**
   * An upper bound of the encoded document (Y.encodeStateAsUpdate, pending included): its exact size when last
   * measured, plus the growth bound of every update admitted since (see growthBound).
   */
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
  const state: BoundDoc = { ...binding, rows: updates.length, bytes: 0 };
  state.bytes = encodedSize(doc);
  bound.set(doc, state);
  doc.on('update', (update: Uint8Array) => {
    try {
      if (!state.store.isOpen) return;
      state.store.append(state.groupId, update);
      state.rows += 1;
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

/** The exact size a joiner would receive, pending structs included (encodeStateAsUpdate merges them in). */
function encodedSize(doc: Y.Doc): number {
  return Y.encodeStateAsUpdate(doc).byteLength;
}

/**
 * What an update can add to the document: only its new parts (structs past the server's clock of their client,
 * delete ranges the document does not already cover). A reconnect's sync step 2 repeats the whole delete set
 * and structs the server has; those add nothing and are not counted (see UpdateSummary).
 */
export interface UpdateShape {
  bytes: number;
  structs: number;
  deleteRanges: number;
}

/** One extra struct header in the encoding: info byte, origin and right origin IDs, a length. */
const SPLIT_BYTES = 32;

/**
 * How much an update can grow the encoded document, at most. Its structs are stored as they arrive, and the
 * deleted ones appear once more in the delete set (2 × bytes). Each struct can split the item at its origin
 * and its right origin, and each delete range the items at its two ends: a split adds one struct header.
 * The sum of incoming bytes alone undercounts (10,000 one-byte GC blocks re-encoded to twice their size).
 */
export function growthBound(update: UpdateShape): number {
  return 2 * update.bytes + 2 * SPLIT_BYTES * (update.structs + update.deleteRanges);
}

/**
 * Admits an update before it is applied if the document stays within NOTES.maxDocBytes (a deletion-only
 * update within deleteReserveBytes more, so full notes can always be shortened), and counts its growth bound.
 * An update that adds nothing is always admitted: a member must be able to reconnect with a saved copy.
 * When the running bound says no, the document is measured exactly first (O(document), so only then).
 */
export function admitDocGrowth(doc: Y.Doc, update: UpdateShape): boolean {
  const state = bound.get(doc);
  if (!state) return true;
  const growth = growthBound(update);
  // Nothing new (a reconnect whose sync step 2 repeats what the server has): Yjs applies nothing.
  if (growth === 0) return true;
  const limit =
    update.structs === 0 ? NOTES.maxDocBytes + NOTES_FRAME_LIMITS.deleteReserveBytes : NOTES.maxDocBytes;
  if (state.bytes + growth > limit) state.bytes = encodedSize(doc);
  if (state.bytes + growth > limit) return false;
  state.bytes += growth;
  return true;
}
