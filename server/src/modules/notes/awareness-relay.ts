import type { WSSharedDoc } from '@y/websocket-server/utils';
import { applyAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness';
import { NOTES_FRAME_LIMITS } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import { awarenessFramesOf, awarenessUpdateOf, entryOf } from './awareness-encoding';
import {
  claimAwareness,
  heldBy,
  heldCount,
  ownerOf,
  releaseClient,
  RemoteOwner,
  sortRelayedAwareness,
} from './awareness-owners';
import { parseRelay, relayBody, type AwarenessRelayMessage } from './awareness-wire';
import { decodeAwarenessFrame, type AwarenessEntry } from './frame-decoder';
import { MalformedFrame } from './frame-reader';
import { RemoteNodes } from './remote-nodes';

/** The origin of states applied from another node: never relayed again (each node relays its own). */
const FROM_PEER = Symbol('awareness relayed by another node');

export interface RelayTimings {
  /** How often a node serving notes says it is alive. */
  aliveEveryMs: number;
  /** A node not heard this long is gone (a crash, or Redis lost): its clients' states are removed. */
  silentAfterMs: number;
}

/** Five heartbeats missed in a row, so a busy node is not taken for gone; far under y-protocols' 30 s. */
export const RELAY_TIMINGS: RelayTimings = { aliveEveryMs: 1000, silentAfterMs: 5000 };

/**
 * Client ids one document may hold in all, local and relayed: every member's connections on four nodes.
 * Past it a node's new ids are dropped here (an honest deployment never gets near it).
 */
const MAX_HELD_CLIENTS = 4 * NOTES_FRAME_LIMITS.maxAwarenessEntriesPerMessage;

interface AwarenessChanges {
  added: number[];
  updated: number[];
  removed: number[];
}

interface Outgoing {
  /** Coalesced within the tick: each client's latest entry, with the member that announced it. */
  entries: Map<number, { userId: string; entry: AwarenessEntry }>;
  /** A node asked: every state of this node's clients in the group goes out. */
  everything: boolean;
}

/**
 * Group notes' awareness (who is present, cursors) across nodes (REDIS_URL), on the `notes` channel. What a
 * node relays is what it applied for its own connections, after NotesFrameGuard (membership, rates, decoding
 * within NOTES_FRAME_LIMITS, ownership of client ids) and removals as its sockets close. A receiving node
 * applies only entries it may (awareness-owners.ts, sortRelayedAwareness) to its awareness for the group,
 * which broadcasts them to its own sockets through the same send gate as local ones (a removed member gets
 * nothing). States are never stored: a node that opens a group asks the others for theirs (`q`), and one
 * that went silent has its states removed (remote-nodes.ts).
 */
export class NotesAwarenessRelay {
  private readonly docs = new Map<string, { doc: WSSharedDoc; stop: () => void }>();
  private readonly outgoing = new Map<string, Outgoing>();
  private flushing = false;
  private readonly nodes = new RemoteNodes();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly nodeId: string,
    private readonly send: (body: string) => void,
    private readonly log: Logger,
    private readonly timings: RelayTimings = RELAY_TIMINGS,
  ) {
    this.timer = setInterval(() => this.beat(), timings.aliveEveryMs);
    this.timer.unref();
  }

  loaded(groupId: string, doc: WSSharedDoc): void {
    const listener = (changes: AwarenessChanges, origin: unknown) =>
      this.changed(groupId, doc, changes, origin);
    doc.awareness.on('update', listener);
    this.docs.set(groupId, { doc, stop: () => doc.awareness.off('update', listener) });
    this.publish({ kind: 'query', nodeId: this.nodeId, groupId });
  }

  /** The last socket closed: its removal is still queued and goes out with the next flush. */
  unloaded(groupId: string, doc: WSSharedDoc): void {
    const entry = this.docs.get(groupId);
    if (entry?.doc !== doc) return;
    entry.stop();
    this.docs.delete(groupId);
    this.nodes.forgetGroup(groupId);
  }

  /** Redis is back: messages were lost both ways, so every open group is announced and asked again. */
  reannounce(): void {
    for (const groupId of this.docs.keys()) {
      this.publish({ kind: 'query', nodeId: this.nodeId, groupId });
      this.outgoingOf(groupId).everything = true;
    }
    this.scheduleFlush();
  }

  receive(body: string): void {
    const message = parseRelay(body);
    if ('dropped' in message) return this.dropped(message.dropped, body.length);
    this.nodes.heard(message.nodeId);
    if (message.kind === 'alive') return;
    const doc = this.docs.get(message.groupId)?.doc;
    // Not open here: nobody to show it to, nothing to answer with.
    if (!doc) return;
    if (message.kind === 'query') {
      this.outgoingOf(message.groupId).everything = true;
      return this.scheduleFlush();
    }
    this.apply(doc, message);
  }

  close(): void {
    clearInterval(this.timer);
    for (const { stop } of this.docs.values()) stop();
    this.docs.clear();
    this.outgoing.clear();
  }

  private apply(doc: WSSharedDoc, message: Extract<AwarenessRelayMessage, { kind: 'states' }>): void {
    const { nodeId, groupId, userId, frame } = message;
    let entries: AwarenessEntry[];
    try {
      entries = decodeAwarenessFrame(frame);
    } catch (err) {
      if (!(err instanceof MalformedFrame)) throw err;
      return this.dropped(err.reason, frame.byteLength, groupId);
    }
    const from = new RemoteOwner(nodeId, userId);
    const { kept, claimed } = sortRelayedAwareness(doc, doc.awareness, from, entries);
    if (kept.length === 0) return;
    const fresh = claimed.filter((client) => ownerOf(doc, client) === undefined).length;
    if (heldCount(doc) + fresh > MAX_HELD_CLIENTS)
      return this.dropped('too many clients', frame.byteLength, groupId);
    // Held before they are applied: the listener then knows them for another node's and relays nothing.
    claimAwareness(doc, from, claimed);
    this.nodes.holds(nodeId, groupId);
    applyAwarenessUpdate(doc.awareness, awarenessUpdateOf(kept), FROM_PEER);
  }

  /** Every change of the group's awareness: this node's clients' go out, other nodes' ids are let go. */
  private changed(groupId: string, doc: WSSharedDoc, changes: AwarenessChanges, origin: unknown): void {
    let leaving = false;
    for (const client of changes.removed) {
      // Removed by its node, by that node's silence, or by y-protocols' timeout: the id is free again.
      if (ownerOf(doc, client) instanceof RemoteOwner) releaseClient(doc, client);
      else leaving = this.queue(groupId, doc, client) || leaving;
    }
    // A socket closed: its removal goes out now, in the close event. When the server stops, its Redis
    // connection closes right after the sockets' close events, before a later tick would come.
    if (leaving) return this.flush();
    if (origin === FROM_PEER) return;
    for (const client of [...changes.added, ...changes.updated]) {
      if (!(ownerOf(doc, client) instanceof RemoteOwner)) this.queue(groupId, doc, client);
    }
  }

  /** Whether the client's entry is queued. */
  private queue(groupId: string, doc: WSSharedDoc, client: number): boolean {
    // The server's own client id (no state) is nobody's presence.
    if (client === doc.awareness.clientID) return false;
    const entry = entryOf(doc.awareness, client);
    if (!entry) return false;
    const userId = ownerOf(doc, client)?.userId ?? '';
    this.outgoingOf(groupId).entries.set(client, { userId, entry });
    this.scheduleFlush();
    return true;
  }

  private outgoingOf(groupId: string): Outgoing {
    let outgoing = this.outgoing.get(groupId);
    if (!outgoing) this.outgoing.set(groupId, (outgoing = { entries: new Map(), everything: false }));
    return outgoing;
  }

  /** Once per tick: a burst of cursor moves in one group leaves as one message per member. */
  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      this.flush();
    });
  }

  private flush(): void {
    const outgoing = [...this.outgoing];
    this.outgoing.clear();
    for (const [groupId, { entries, everything }] of outgoing) {
      if (everything) this.addEverything(groupId, entries);
      this.publishEntries(groupId, entries);
    }
  }

  private addEverything(groupId: string, entries: Outgoing['entries']): void {
    const doc = this.docs.get(groupId)?.doc;
    if (!doc) return;
    for (const client of doc.awareness.states.keys()) {
      const owner = ownerOf(doc, client);
      if (entries.has(client) || owner instanceof RemoteOwner || client === doc.awareness.clientID) continue;
      const entry = entryOf(doc.awareness, client);
      if (entry) entries.set(client, { userId: owner?.userId ?? '', entry });
    }
  }

  private publishEntries(groupId: string, entries: Outgoing['entries']): void {
    const byUser = new Map<string, AwarenessEntry[]>();
    for (const { userId, entry } of entries.values()) {
      let list = byUser.get(userId);
      if (!list) byUser.set(userId, (list = []));
      list.push(entry);
    }
    for (const [userId, list] of byUser) {
      for (const frame of awarenessFramesOf(list)) {
        this.publish({ kind: 'states', nodeId: this.nodeId, groupId, userId, frame });
      }
    }
  }

  /** Says this node is alive while it serves notes, and removes the states of nodes gone silent. */
  private beat(): void {
    if (this.docs.size > 0) this.publish({ kind: 'alive', nodeId: this.nodeId });
    // A node that closed its last notes stops saying it is alive too: only a node that left states is news.
    for (const [nodeId, groups] of this.nodes.takeSilent(this.timings.silentAfterMs)) {
      let removed = 0;
      for (const groupId of groups) {
        const doc = this.docs.get(groupId)?.doc;
        if (!doc) continue;
        const clients = heldBy(doc, (owner) => owner instanceof RemoteOwner && owner.nodeId === nodeId);
        removeAwarenessStates(doc.awareness, clients, FROM_PEER);
        for (const client of clients) releaseClient(doc, client);
        removed += clients.length;
      }
      if (removed > 0)
        this.log.info({ nodeId, removed }, 'notes: a node went silent; its presence was removed');
    }
  }

  private publish(message: AwarenessRelayMessage): void {
    this.send(relayBody(message));
  }

  private dropped(reason: string, size: number, groupId?: string): void {
    this.log.warn({ reason, size, groupId }, 'notes: dropped an awareness message from another node');
  }
}
