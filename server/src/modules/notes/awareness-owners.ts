import type { Awareness } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import type { AwarenessEntry } from './frame-decoder';

/** A connection, as far as awareness ownership is concerned. */
export interface AwarenessOwner {
  readonly userId: string;
}

/**
 * A client id announced by a member connected to another node (REDIS_URL), as that node relayed it. Held
 * like a local connection's ids, so no connection here can overwrite or remove it, while the same member
 * may take it over (they reconnected here with the same client id).
 */
export class RemoteOwner implements AwarenessOwner {
  constructor(
    readonly nodeId: string,
    /** '' when the sending node no longer knew whose it was (a removal after its connection closed). */
    readonly userId: string,
  ) {}
}

/** Per document: which live connection (or other node) announced each awareness client id first. */
const owners = new WeakMap<Y.Doc, Map<number, AwarenessOwner>>();

function ownersOf(doc: Y.Doc): Map<number, AwarenessOwner> {
  let map = owners.get(doc);
  if (!map) owners.set(doc, (map = new Map()));
  return map;
}

export function ownerOf(doc: Y.Doc, client: number): AwarenessOwner | undefined {
  return owners.get(doc)?.get(client);
}

/** How many client ids the document's owners hold, local and remote (what bounds the map's memory). */
export function heldCount(doc: Y.Doc): number {
  return owners.get(doc)?.size ?? 0;
}

/** The client ids whose owner matches. */
export function heldBy(doc: Y.Doc, matches: (owner: AwarenessOwner) => boolean): number[] {
  const held = owners.get(doc);
  if (!held) return [];
  const clients: number[] = [];
  for (const [client, owner] of held) if (matches(owner)) clients.push(client);
  return clients;
}

/**
 * Whether applyAwarenessUpdate (y-protocols) would change anything for this entry: a newer clock, or the
 * removal of a state present at the same clock. Everything else is a no-op there, so it is dropped here.
 * The server's own client id is nobody's: a state set for it would be renewed by the server forever.
 */
function changes(awareness: Awareness, entry: AwarenessEntry): boolean {
  if (entry.client === awareness.clientID) return false;
  const current = awareness.meta.get(entry.client)?.clock ?? 0;
  if (current < entry.clock) return true;
  return current === entry.clock && entry.removed && awareness.states.has(entry.client);
}

export interface AwarenessSort {
  /** Entries to apply; the rest are relays of other people's states, or no-ops. */
  kept: AwarenessEntry[];
  /** Client ids the sender holds from this message on (new ones, or taken over from another node). */
  claimed: number[];
}

/** What happens to an entry for an id someone holds: dropped, applied, or applied and held by its sender. */
type Verdict = 'drop' | 'keep' | 'claim';

/** Entries that change something; an id nobody holds is claimed (a removal of one is dropped). */
function sortEntries(
  doc: Y.Doc,
  awareness: Awareness,
  entries: AwarenessEntry[],
  decide: (owner: AwarenessOwner) => Verdict,
): AwarenessSort {
  const held = ownersOf(doc);
  const kept: AwarenessEntry[] = [];
  const claimed: number[] = [];
  for (const entry of entries) {
    if (!changes(awareness, entry)) continue;
    const owner = held.get(entry.client);
    const verdict = owner === undefined ? (entry.removed ? 'drop' : 'claim') : decide(owner);
    if (verdict === 'drop') continue;
    if (verdict === 'claim') claimed.push(entry.client);
    kept.push(entry);
  }
  return { kept, claimed };
}

/**
 * y-websocket sends the server every awareness change it sees, other people's included (their states, and
 * their removal when its own 30 s timeout fires). Only a connection's own client ids are applied:
 * - an id another live connection announced belongs to that connection; a different member's relay of it is
 *   dropped, so nobody can overwrite or remove someone else's presence (the same member's other tab or
 *   reconnected socket may update it: that is their own state);
 * - an id a member on another node announced is theirs in the same way; the same member connected here
 *   takes it over (a reconnect that landed on this node);
 * - an id nobody holds, with a state, becomes this connection's (counted against its cap by the caller);
 * - a removal of an id nobody holds, or anything applyAwarenessUpdate would ignore, is dropped.
 */
export function sortAwareness(
  doc: Y.Doc,
  awareness: Awareness,
  me: AwarenessOwner,
  entries: AwarenessEntry[],
): AwarenessSort {
  return sortEntries(doc, awareness, entries, (owner) => {
    if (owner !== me && owner.userId !== me.userId) return 'drop';
    return owner instanceof RemoteOwner ? 'claim' : 'keep';
  });
}

/**
 * The same rules for entries another node relayed (it applied them under these rules for its own
 * connections): that node's own ids, ids nobody here holds, and the same member's ids held for another
 * node. Never an id a connection of this node holds: here, that connection speaks for it.
 */
export function sortRelayedAwareness(
  doc: Y.Doc,
  awareness: Awareness,
  from: RemoteOwner,
  entries: AwarenessEntry[],
): AwarenessSort {
  return sortEntries(doc, awareness, entries, (owner) => {
    if (!(owner instanceof RemoteOwner)) return 'drop';
    if (owner.nodeId === from.nodeId) return owner.userId === from.userId ? 'keep' : 'claim';
    return from.userId !== '' && owner.userId === from.userId ? 'claim' : 'drop';
  });
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

/** A relayed state was removed (by its node, its node's silence, or the 30 s timeout): the id is free. */
export function releaseClient(doc: Y.Doc, client: number): void {
  owners.get(doc)?.delete(client);
}
