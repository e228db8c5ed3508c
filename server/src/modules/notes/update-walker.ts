import { NOTES, NOTES_FRAME_LIMITS } from '@campus/protocol';
import { FrameReader, MalformedFrame } from './frame-reader';

/** Yjs client ids are random uint32 (Doc.clientID); larger ones come from no Yjs client. */
export const MAX_CLIENT_ID = 0xffff_ffff;

/** What the server knows of a client: the next clock it expects from it (Y.getState). */
export type ClockOf = (client: number) => number;

/**
 * Whether the server's document already holds every struct of [clock, clock + length) of a client as deleted:
 * a delete range it covers changes nothing (a reconnect's sync step 2 carries the whole delete set).
 */
export type DeletedIn = (client: number, clock: number, length: number) => boolean;

export interface UpdateSummary {
  structs: number;
  /** Ranges in the delete set: each may split an item of the document in two. */
  deleteRanges: number;
  /** Structs that reach past what the server has of their client: only these can add to the document. */
  newStructs: number;
  /** Delete ranges the server's document does not already cover (see DeletedIn). */
  newDeleteRanges: number;
  /** Encoded bytes of the new structs and new delete ranges: what the document can grow by. */
  newBytes: number;
  /** Client ids the server has no struct of yet (clockOf is 0): each stays in the document forever. */
  newClients: number;
  /** True if Yjs would hold part of this update as pending (a gap, or a reference to an edit it lacks). */
  missingDependencies: boolean;
}

/** Info byte bits of a struct (yjs/src/utils/encoding.js, Item.write). */
const CONTENT_MASK = 0x1f;
const HAS_PARENT_SUB = 0x20;
const HAS_RIGHT_ORIGIN = 0x40;
const HAS_ORIGIN = 0x80;

const GC = 0;
const SKIP = 10;
/** Content kinds of an Item (contentRefs in yjs/src/structs/Item.js). */
const DELETED = 1;
const JSON_CONTENT = 2;
const BINARY = 3;
const STRING = 4;
const EMBED = 5;
const FORMAT = 6;
const ANY = 8;

interface Reference {
  client: number;
  clock: number;
}

/**
 * Walks a Yjs v1 update exactly as Yjs's readClientsStructRefs and readDeleteSet would, without building
 * anything: client blocks (struct count, client, clock, structs), then the delete set. Everything Yjs could
 * pre-allocate from is bounded by the bytes left; every string Yjs would JSON.parse must parse, and only the
 * content a notes Y.Text can hold is accepted (no sub-documents or nested types, whose objects are far
 * larger than their encoding). Also tells whether applying it would leave structs or deletes pending.
 */
export function walkUpdate(
  update: Uint8Array,
  clockOf: ClockOf,
  deletedIn: DeletedIn = () => false,
): UpdateSummary {
  const reader = new FrameReader(update);
  const available = new Map<number, number>();
  const references: Reference[] = [];
  const seenClients = new Set<number>();
  let missing = false;
  let structs = 0;
  let newClients = 0;
  let newStructs = 0;
  let newBytes = 0;

  // Client block: struct count, client, clock; a struct is at least two bytes (info + length or content).
  const blocks = reader.count(4);
  for (let b = 0; b < blocks; b++) {
    const count = reader.count(2);
    if (count === 0) throw new MalformedFrame('empty client block');
    structs += count;
    if (structs > NOTES_FRAME_LIMITS.maxStructsPerFrame) throw new MalformedFrame('too many structs');
    const client = reader.varUint(MAX_CLIENT_ID);
    if (seenClients.has(client)) throw new MalformedFrame('client block repeated');
    seenClients.add(client);
    let clock = reader.varUint();
    const known = clockOf(client);
    if (known === 0 && ++newClients > NOTES_FRAME_LIMITS.maxNewClientsPerFrame) {
      throw new MalformedFrame('too many new clients');
    }
    // Yjs integrates a block only from a clock it already has; past a gap or a Skip the rest waits as pending.
    let reachable = clock <= known;
    if (!reachable) missing = true;
    for (let i = 0; i < count; i++) {
      const start = reader.pos;
      const length = readStruct(reader, client, clock, references);
      if (length === null) {
        reachable = false;
        const skipped = reader.varUint();
        if (skipped === 0) throw new MalformedFrame('empty struct');
        clock += skipped;
        continue;
      }
      if (!reachable) missing = true;
      // A struct the server already has (end at or before its clock) is skipped by Yjs: it adds nothing.
      if (clock + length > known) {
        newStructs += 1;
        newBytes += reader.pos - start;
      }
      clock += length;
      if (clock > Number.MAX_SAFE_INTEGER) throw new MalformedFrame('clock out of range');
      if (reachable) available.set(client, Math.max(known, clock));
    }
  }

  const reach = (client: number) => Math.max(clockOf(client), available.get(client) ?? 0);
  for (const ref of references) {
    if (ref.clock >= reach(ref.client)) missing = true;
  }

  // Delete set: clients, then (clock, length) ranges; a range past what is known waits as pending. Yjs
  // writes each client once, its ranges sorted and merged (sortAndMergeDeleteSet): ranges out of order or
  // overlapping come from no Yjs client, and are refused because applying each range walks every struct it
  // covers: thousands of ranges over one long run of deleted text cost seconds, yet add nothing.
  const deleteClients = reader.count(2);
  const seenDeleteClients = new Set<number>();
  let deleteRanges = 0;
  let newDeleteRanges = 0;
  for (let c = 0; c < deleteClients; c++) {
    const client = reader.varUint(MAX_CLIENT_ID);
    if (seenDeleteClients.has(client)) throw new MalformedFrame('delete set client repeated');
    seenDeleteClients.add(client);
    const ranges = reader.count(2);
    deleteRanges += ranges;
    const known = reach(client);
    let end = 0;
    for (let r = 0; r < ranges; r++) {
      const start = reader.pos;
      const clock = reader.varUint();
      const length = reader.varUint();
      if (length === 0) throw new MalformedFrame('empty delete range');
      if (clock < end) throw new MalformedFrame('delete ranges out of order');
      end = clock + length;
      if (clock + length > known) missing = true;
      if (clock + length > clockOf(client) || !deletedIn(client, clock, length)) {
        newDeleteRanges += 1;
        newBytes += reader.pos - start;
      }
    }
  }
  if (!reader.done) throw new MalformedFrame('trailing bytes in update');
  return {
    structs,
    deleteRanges,
    newStructs,
    newDeleteRanges,
    newBytes,
    newClients,
    missingDependencies: missing,
  };
}

/** An ID written as two varints (UpdateDecoderV1.readLeftID). */
function readId(reader: FrameReader): Reference {
  return { client: reader.varUint(MAX_CLIENT_ID), clock: reader.varUint() };
}

/**
 * Reads one struct and returns its clock length, or null for a Skip (whose length the caller reads).
 * References to other clients are collected for the dependency check; a reference to the same client must
 * point before this struct, or Yjs's getItem would throw halfway through the update.
 */
function readStruct(reader: FrameReader, client: number, clock: number, refs: Reference[]): number | null {
  const info = reader.uint8();
  const kind = info & CONTENT_MASK;
  if (kind === SKIP) return null;
  // A GC struct replaces content whose parent type was deleted; the notes have one root text and no nested
  // types, so no client's document holds one. Refused: a GC struct is two bytes that add a client for good.
  if (kind === GC) throw new MalformedFrame('gc struct not allowed');
  const addRef = (ref: Reference) => {
    if (ref.client === client && ref.clock >= clock) throw new MalformedFrame('reference to a later struct');
    if (ref.client !== client) refs.push(ref);
  };
  if (info & HAS_ORIGIN) addRef(readId(reader));
  if (info & HAS_RIGHT_ORIGIN) addRef(readId(reader));
  if ((info & (HAS_ORIGIN | HAS_RIGHT_ORIGIN)) === 0) {
    const parentInfo = reader.varUint();
    if (parentInfo === 1) {
      // A root type: only the notes text exists; any other name would add a type to the shared document.
      if (reader.varString() !== NOTES.textName) throw new MalformedFrame('unknown root type');
    } else if (parentInfo === 0) {
      addRef(readId(reader));
    } else {
      throw new MalformedFrame('bad parent info');
    }
    if (info & HAS_PARENT_SUB) reader.varStringBytes();
  }
  return readContent(reader, kind);
}

/** Reads an Item's content and returns its clock length (AbstractContent.getLength). */
function readContent(reader: FrameReader, kind: number): number {
  switch (kind) {
    case DELETED: {
      const length = reader.varUint();
      if (length === 0) throw new MalformedFrame('empty struct');
      return length;
    }
    case JSON_CONTENT: {
      const items = reader.count(1);
      if (items === 0) throw new MalformedFrame('empty struct');
      for (let i = 0; i < items; i++) reader.jsonString(true);
      return items;
    }
    case BINARY:
      reader.varBytes();
      return 1;
    case STRING: {
      const text = reader.varString();
      if (text.length === 0) throw new MalformedFrame('empty struct');
      return text.length;
    }
    case EMBED:
      reader.jsonString(false);
      return 1;
    case FORMAT:
      reader.varStringBytes();
      reader.jsonString(false);
      return 1;
    case ANY: {
      const items = reader.count(1);
      if (items === 0) throw new MalformedFrame('empty struct');
      for (let i = 0; i < items; i++) reader.any(NOTES_FRAME_LIMITS.maxAnyDepth);
      return items;
    }
    default:
      // 7 (nested type) and 9 (sub-document) are not part of the notes; 11..31 are no content at all.
      throw new MalformedFrame('content not allowed in notes');
  }
}
