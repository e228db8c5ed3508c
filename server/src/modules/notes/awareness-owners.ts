import type { Awareness } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import type { AwarenessEntry } from './frame-decoder';

/** A connection, as far as awareness ownership is concerned. */
export interface AwarenessOwner {
  readonly userId: string;
}

/** Per document: which live connection announced each awareness client id first. */
const owners = new WeakMap<Y.Doc, Map<number, AwarenessOwner>>();

function ownersOf(doc: Y.Doc): Map<number, AwarenessOwner> {
  let map = owners.get(doc);
  if (!map) owners.set(doc, (map = new Map()));
  return map;
}

/**
 * Whether applyAwarenessUpdate (y-protocols) would change anything for this entry: a newer clock, or the
 * removal of a state present at the same clock. Everything else is a no-op there, so it is dropped here.
 */
function changes(awareness: Awareness, entry: AwarenessEntry): boolean {
  const current = awareness.meta.get(entry.client)?.clock ?? 0;
  if (current < entry.clock) return true;
  return current === entry.clock && entry.removed && awareness.states.has(entry.client);
}

export interface AwarenessSort {
  /** Entries to apply; the rest are relays of other people's states, or no-ops. */
  kept: AwarenessEntry[];
  /** Client ids this connection announced for the first time in this message. */
  claimed: number[];
}

/**
 * y-websocket sends the server every awareness change it sees, other people's included (their states, and
 * their removal when its own 30 s timeout fires). Only a connection's own client ids are applied:
 * - an id another live connection announced belongs to that connection; a different member's relay of it is
 *   dropped, so nobody can overwrite or remove someone else's presence (the same member's other tab or
 *   reconnected socket may update it: that is their own state);
 * - an id nobody holds, with a state, becomes this connection's (counted against its cap by the caller);
 * - a removal of an id nobody holds, or anything applyAwarenessUpdate would ignore, is dropped.
 */
export function sortAwareness(
  doc: Y.Doc,
  awareness: Awareness,
  me: AwarenessOwner,
  entries: AwarenessEntry[],
): AwarenessSort {
  const held = ownersOf(doc);
  const kept: AwarenessEntry[] = [];
  const claimed: number[] = [];
  for (const entry of entries) {
    if (!changes(awareness, entry)) continue;
    const owner = held.get(entry.client);
    if (owner === undefined) {
      if (entry.removed) continue;
      claimed.push(entry.client);
      kept.push(entry);
    } else if (owner === me || owner.userId === me.userId) {
      kept.push(entry);
    }
  }
  return { kept, claimed };
}

export function claimAwareness(doc: Y.Doc, me: AwarenessOwner, clients: number[]): void {
  const held = ownersOf(doc);
  for (const client of clients) held.set(client, me);
}

/** The connection closed: its ids are free (the server removes their states in the same turn). */
export function releaseAwareness(doc: Y.Doc, me: AwarenessOwner): void {
  const held = owners.get(doc);
  if (!held) return;
  for (const [client, owner] of held) if (owner === me) held.delete(client);
}

/** lib0 writeVarUint. */
function pushVarUint(out: number[], n: number): void {
  while (n > 0x7f) {
    out.push(0x80 | (n & 0x7f));
    n = Math.floor(n / 128);
  }
  out.push(n);
}

/** The awareness frame (message type 1) carrying only `entries`, as y-protocols would encode it. */
export function awarenessFrameOf(entries: AwarenessEntry[]): Uint8Array {
  const body: number[] = [];
  pushVarUint(body, entries.length);
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    const head: number[] = [];
    pushVarUint(head, entry.client);
    pushVarUint(head, entry.clock);
    parts.push(Uint8Array.from(head), entry.state);
  }
  const payloadLength = body.length + parts.reduce((sum, part) => sum + part.byteLength, 0);
  const prefix: number[] = [1];
  pushVarUint(prefix, payloadLength);
  return Buffer.concat([Uint8Array.from(prefix), Uint8Array.from(body), ...parts]);
}

/** Bytes an entry adds to a message: what the per-connection awareness rate charges. */
export const entryBytes = (entry: AwarenessEntry) => entry.state.byteLength + 10;
