import * as Y from 'yjs';
import { WSSharedDoc } from '@y/websocket-server/utils';
import { NOTES, NOTES_FRAME_LIMITS } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import { cancelPendingDrop, dropPending, pendingBytes, schedulePendingDrop } from './pending';
import type { NotesStore, StoredUpdate } from './store';
import { WorkQueue } from './work-queue';

/** More rows than this for one group and they are folded into a single snapshot row. */
export const COMPACT_AFTER_ROWS = 200;

/**
 * The transaction origin of an update some other node stored already (read from the database, or received
 * from a node through Redis): it is neither stored again nor published again, which is what keeps two nodes
 * from echoing each other. Local clients still get it through @y/websocket-server's broadcast.
 */
export const STORED_ELSEWHERE = Symbol('notes update stored elsewhere');

/** The other nodes serving the same notes (cross-node.ts, with REDIS_URL). */
export interface NotesPeers {
  loaded(groupId: string, doc: WSSharedDoc): void;
  unloaded(groupId: string, doc: WSSharedDoc): void;
  /** An update this node applied first (a client's edit), after it was stored. */
  applied(groupId: string, update: Uint8Array): void;
}

export interface NotesBinding {
  store: NotesStore;
  log: Logger;
  groupId: string;
  /** Set with REDIS_URL only; without it a node is alone with its documents, as before. */
  peers?: NotesPeers;
}

interface BoundDoc extends NotesBinding {
  rows: number;
  /**
   * An upper bound of the encoded document (Y.encodeStateAsUpdate, pending included): its exact size when last
   * measured, plus the growth bound of every update admitted since (see growthBound).
   */
  bytes: number;
  /** Every stored row up to this id is in the document (row ids of a group grow in commit order). */
  seenRowId: number;
  /** The document's appends and compactions, one at a time and in order. */
  writes: WorkQueue;
  /** The catch-up reading now, and the one that starts after it (see catchUpFromStore). */
  reading: Promise<number> | null;
  readingNext: Promise<number> | null;
  /** No connection serves it any more (writeState ran): nothing more is read into it. */
  closed: boolean;
}

const bound = new WeakMap<Y.Doc, BoundDoc>();

const lastId = (rows: StoredUpdate[], otherwise: number) => rows[rows.length - 1]?.id ?? otherwise;

/**
 * A fresh document holding every stored update of the group, then storing each later update as a row. The
 * rows are read before the document exists anywhere a socket could reach it (doc-loader.ts), so no client
 * ever syncs with part of the notes.
 */
export async function loadNotesDoc(docName: string, binding: NotesBinding): Promise<WSSharedDoc> {
  const rows = await binding.store.load(binding.groupId);
  const doc = new WSSharedDoc(docName);
  doc.gc = true;
  if (rows.length) Y.applyUpdate(doc, Y.mergeUpdates(rows.map((row) => row.update)));
  // Rows saved before pending structs were dropped at compaction may hold some; they can never resolve.
  const stale = dropPending(doc);
  if (stale > 0)
    binding.log.warn({ groupId: binding.groupId, bytes: stale }, 'notes: dropped stored pending');
  const state: BoundDoc = {
    ...binding,
    rows: rows.length,
    bytes: encodedSize(doc),
    seenRowId: lastId(rows, 0),
    writes: new WorkQueue(),
    reading: null,
    readingNext: null,
    closed: false,
  };
  bound.set(doc, state);
  doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin === STORED_ELSEWHERE || !state.store.isOpen) return;
    void state.writes.run(() => storeUpdate(doc, state, update));
  });
  return doc;
}

/** The document serves its first connection: from now on it hears what other nodes store. */
export function notesDocOpened(doc: WSSharedDoc): void {
  const state = bound.get(doc);
  state?.peers?.loaded(state.groupId, doc);
}

async function storeUpdate(doc: Y.Doc, state: BoundDoc, update: Uint8Array): Promise<void> {
  try {
    const id = await state.store.append(state.groupId, update);
    // The next id after the last one read: no other node stored a row in between, so none is unseen.
    if (id === state.seenRowId + 1) state.seenRowId = id;
    state.rows += 1;
    if (state.rows > COMPACT_AFTER_ROWS) await compact(doc, state);
  } catch (err) {
    state.log.error({ err, groupId: state.groupId }, 'storing a notes update failed');
  }
  // After the row is stored: a node that cannot apply this (it missed an earlier one) reads the database.
  state.peers?.applied(state.groupId, update);
}

/**
 * Pending structs are never stored: they wait in memory only (see pending.ts), so they are dropped first.
 * Rows other nodes stored since this one last read are merged into the snapshot (the document reads them
 * at its next catch-up: until then it does not claim to have seen them). Runs on the document's write queue.
 */
async function compact(doc: Y.Doc, state: BoundDoc): Promise<void> {
  if (!state.store.isOpen) return;
  let encodedBytes = 0;
  let boundAtEncode = 0;
  const written = await state.store.compact(state.groupId, state.seenRowId, (unseen) => {
    // Inside the store's transaction, so the snapshot holds every edit applied until then.
    const dropped = dropPending(doc);
    if (dropped > 0)
      state.log.warn({ groupId: state.groupId, bytes: dropped }, 'notes: dropped pending updates');
    const own = Y.encodeStateAsUpdate(doc);
    encodedBytes = own.byteLength;
    boundAtEncode = state.bytes;
    return unseen.length ? Y.mergeUpdates([own, ...unseen]) : own;
  });
  if (written.unseen === 0) state.seenRowId = Math.max(state.seenRowId, written.id);
  state.rows = 1;
  // Measured at the encode, plus what was admitted while the transaction finished.
  state.bytes = encodedBytes + Math.max(0, state.bytes - boundAtEncode);
}

/**
 * Applies what other nodes stored since this document last read the database. Yjs updates are idempotent
 * and commutative, so rows it already holds (its own, or ones Redis brought) change nothing. The rows were
 * checked by the node that stored them, like the ones loadNotesDoc reads. Resolves with the rows read.
 * A caller gets a read that starts after its call: while one runs, the next waits for it.
 */
export function catchUpFromStore(doc: Y.Doc): Promise<number> {
  const state = bound.get(doc);
  if (!state || state.closed || !state.store.isOpen) return Promise.resolve(0);
  if (!state.reading) {
    const reading = readMissed(doc, state);
    state.reading = reading;
    const done = () => {
      if (state.reading === reading) state.reading = null;
    };
    reading.then(done, done);
    return reading;
  }
  if (!state.readingNext) {
    const next = () => {
      state.readingNext = null;
      return catchUpFromStore(doc);
    };
    state.readingNext = state.reading.then(next, next);
  }
  return state.readingNext;
}

async function readMissed(doc: Y.Doc, state: BoundDoc): Promise<number> {
  const rows = await state.store.load(state.groupId, state.seenRowId);
  if (!rows.length || state.closed) return 0;
  state.seenRowId = Math.max(state.seenRowId, lastId(rows, 0));
  // Mostly rows the document holds already (its own, or ones Redis brought): measured again (O(document))
  // only when something was new.
  if (applyStoredElsewhere(doc, state, Y.mergeUpdates(rows.map((row) => row.update))))
    state.bytes = encodedSize(doc);
  return rows.length;
}

/**
 * Applies an update another node applied and stored (Redis), already walked and found complete by the caller.
 * It is applied whatever the size limit says, since it is already part of the notes; its growth is counted so
 * this node's own admissions see it.
 */
export function applyPeerUpdate(doc: Y.Doc, update: Uint8Array, shape: UpdateShape): void {
  const state = bound.get(doc);
  if (!state?.store.isOpen || state.closed) return;
  state.bytes += growthBound(shape);
  applyStoredElsewhere(doc, state, update);
}

/** Returns whether the document changed. */
function applyStoredElsewhere(doc: Y.Doc, state: BoundDoc, update: Uint8Array): boolean {
  // Local structs waiting as pending that this update completes are integrated in the same transaction (Yjs
  // retries them inside it): then the whole of it is stored and published like a local edit, or those would
  // live in this node's memory only. Storing another node's part again is harmless (idempotent).
  const origin = pendingBytes(doc) > 0 ? null : STORED_ELSEWHERE;
  let changed = false;
  const onUpdate = () => (changed = true);
  doc.on('update', onUpdate);
  try {
    Y.applyUpdate(doc, update, origin);
  } finally {
    doc.off('update', onUpdate);
  }
  if (pendingBytes(doc) > NOTES_FRAME_LIMITS.maxPendingBytes) dropPending(doc);
  schedulePendingDrop(doc, (bytes) =>
    state.log.warn(
      { groupId: state.groupId, bytes },
      'notes: dropped pending updates that stayed unresolved',
    ),
  );
  return changed;
}

/**
 * The last connection of a document closed: it stops hearing other nodes, finishes its writes, and leaves
 * the group with one compact row. Resolves when all of that is done (a later load of the group waits).
 */
export async function closeNotesDoc(doc: WSSharedDoc): Promise<void> {
  const state = bound.get(doc);
  cancelPendingDrop(doc);
  if (!state) return;
  state.closed = true;
  state.peers?.unloaded(state.groupId, doc);
  await state.writes.run(async () => {
    try {
      if (state.rows > 1) await compact(doc, state);
    } catch (err) {
      state.log.error({ err, groupId: state.groupId }, 'compacting notes failed');
    }
  });
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
