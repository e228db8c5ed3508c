import * as Y from 'yjs';
import { docs, type WSSharedDoc } from '@y/websocket-server/utils';
import { removeAwarenessStates } from 'y-protocols/awareness';
import { CLOSE_CODES, NOTES, NOTES_FRAME_LIMITS, type DocumentStatus } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import { awarenessFrameOf, entryBytes } from './awareness-encoding';
import { claimAwareness, heldBy, releaseAwareness, sortAwareness } from './awareness-owners';
import { decodeNotesFrame, type AwarenessEntry, type NotesFrame } from './frame-decoder';
import { MalformedFrame } from './frame-reader';
import type { FrameGate, FrameRefusal, FrameVerdict } from './guarded-socket';
import { KeyedBuckets } from './keyed-buckets';
import { dropPending, pendingBytes, schedulePendingDrop } from './pending';
import { admitDocGrowth } from './persistence';
import type { NotesAccess, NotesStore } from './store';
import { TokenBucket } from './token-bucket';

export interface FrameGuardOptions {
  docName: string;
  groupId: string;
  userId: string;
  store: NotesStore;
  log: Logger;
  /**
   * New client ids each member may add to each group's notes (NOTES_FRAME_LIMITS.newClientsPerMember), keyed
   * by document and member. One per server (notesRoutes), so reconnecting does not refill it; a client id can
   * never be removed from a Yjs document, so this is what keeps one member from filling a document's
   * maxDocClients (or its bytes) with empty client blocks.
   */
  newClientsPerMember: KeyedBuckets;
  /**
   * Whether a member with this document status may change the notes (the access policy: a limited account
   * reads its groups' notes but does not write them). Asked only for an update that would change the
   * document, with the status read for that frame.
   */
  mayEdit: (status: DocumentStatus | null) => boolean;
  /**
   * Before a client's sync request is answered (with REDIS_URL: the document reads what other nodes stored);
   * the answer waits for the promise it returns.
   */
  beforeSync?: () => Promise<void> | undefined;
  now?: () => number;
}

/** The new-client budget of one server: create one per notesRoutes, on the server's clock. */
export function newClientBudget(now: () => number): KeyedBuckets {
  return new KeyedBuckets(NOTES_FRAME_LIMITS.newClientsPerMember, now);
}

const deliver: FrameVerdict = { kind: 'deliver' };
const drop: FrameVerdict = { kind: 'drop' };

/**
 * The rules one notes connection's frames must pass before @y/websocket-server applies them: still a member,
 * within the connection's rates, decodable within NOTES_FRAME_LIMITS, awareness only for its own client ids,
 * few new client ids, not leaving more than maxPendingBytes waiting, and keeping the document under
 * NOTES.maxDocBytes. Each refusal logs one line (user, group, reason) and closes the connection; the refused
 * frame is never applied.
 */
export class NotesFrameGuard implements FrameGate {
  private readonly frames: TokenBucket;
  private readonly bytes: TokenBucket;
  private readonly awarenessBytes: TokenBucket;
  private readonly syncRequests: TokenBucket;
  private readonly awarenessClients = new Set<number>();
  private appliedUpdate = false;
  /** The sender's document status, as read for the frames being admitted (see prepare). */
  private status: DocumentStatus | null = null;

  constructor(private readonly options: FrameGuardOptions) {
    const now = options.now ?? Date.now;
    this.frames = new TokenBucket(NOTES_FRAME_LIMITS.frames, now);
    this.bytes = new TokenBucket(NOTES_FRAME_LIMITS.bytes, now);
    this.awarenessBytes = new TokenBucket(NOTES_FRAME_LIMITS.awarenessBytes, now);
    this.syncRequests = new TokenBucket(NOTES_FRAME_LIMITS.syncRequests, now);
  }

  get userId(): string {
    return this.options.userId;
  }

  /** As the frame arrives: rates first, they cost nothing and cut a flood before anything is queued. */
  receive(frame: Uint8Array | null): FrameRefusal | null {
    if (!this.options.store.isOpen) return { code: CLOSE_CODES.shuttingDown, reason: 'server stopping' };
    if (!this.frames.take(1)) return this.refusal(NOTES.closeRateLimited, 'too many frames');
    if (frame === null) return this.refusal(NOTES.closeMalformed, 'text frame');
    if (!this.bytes.take(frame.byteLength)) return this.refusal(NOTES.closeRateLimited, 'too many bytes');
    return null;
  }

  /**
   * Membership and document status, read after the queued frames arrived: a member removed from the group
   * can no longer write (or read) from its next frame on. On PostgreSQL the frames wait for the read.
   */
  prepare(): FrameRefusal | null | Promise<FrameRefusal | null> {
    const { store, groupId, userId } = this.options;
    let answer: NotesAccess | Promise<NotesAccess>;
    try {
      answer = store.access(groupId, userId);
    } catch (err) {
      return this.failedRead(err);
    }
    if (!(answer instanceof Promise)) return this.authorize(answer);
    return answer.then(
      (access) => this.authorize(access),
      (err: unknown) => this.failedRead(err),
    );
  }

  admit(frame: Uint8Array): FrameVerdict {
    this.appliedUpdate = false;
    const doc = docs.get(this.options.docName);
    let decoded: NotesFrame;
    try {
      decoded = decodeNotesFrame(
        frame,
        (client) => (doc ? Y.getState(doc.store, client) : 0),
        (client, clock, length) => (doc ? deletedIn(doc, client, clock, length) : false),
      );
    } catch (err) {
      if (err instanceof MalformedFrame) return this.refuse(err.code ?? NOTES.closeMalformed, err.reason);
      throw err;
    }
    switch (decoded.kind) {
      case 'sync-request': {
        if (!this.syncRequests.take(1)) return this.refuse(NOTES.closeRateLimited, 'too many sync requests');
        const wait = this.options.beforeSync?.();
        return wait ? { kind: 'deliver', wait } : deliver;
      }
      case 'awareness':
        return doc ? this.admitAwareness(doc, decoded.entries) : drop;
      case 'update':
        // A sync step 2 that brings nothing new is how a reader's client answers: only changes are writing.
        if ((decoded.newStructs > 0 || decoded.newDeleteRanges > 0) && !this.options.mayEdit(this.status))
          return this.refuse(CLOSE_CODES.forbidden, 'verification required');
        return doc ? this.admitUpdate(doc, decoded) : deliver;
    }
  }

  private authorize(access: NotesAccess): FrameRefusal | null {
    this.status = access.status;
    return access.member ? null : { code: CLOSE_CODES.forbidden, reason: 'not a member' };
  }

  /** The database did not answer: the client reconnects (1011) and is asked again, never let through. */
  private failedRead(err: unknown): FrameRefusal {
    if (!this.options.store.isOpen) return { code: CLOSE_CODES.shuttingDown, reason: 'server stopping' };
    this.options.log.error({ err, groupId: this.options.groupId }, 'notes: reading membership failed');
    return { code: CLOSE_CODES.serverError, reason: 'server error' };
  }

  /** After Yjs applied an admitted update: bound what it left pending, in size now and in time later. */
  settle(): FrameRefusal | null {
    if (!this.appliedUpdate) return null;
    this.appliedUpdate = false;
    const doc = docs.get(this.options.docName);
    if (!doc) return null;
    const { log, groupId } = this.options;
    if (pendingBytes(doc) > NOTES_FRAME_LIMITS.maxPendingBytes) {
      dropPending(doc);
      return this.refusal(NOTES.closeUnresolved, 'too many unresolved edits');
    }
    schedulePendingDrop(doc, (bytes) =>
      log.warn({ groupId, bytes }, 'notes: dropped pending updates that stayed unresolved'),
    );
    return null;
  }

  /**
   * The socket closed: the states of the client ids it announced go now (setupWSConnection removes only ids
   * whose state was new on this socket, not one a reconnect announced again), which every node relays, and
   * the ids may be announced by another connection.
   */
  closed(): void {
    const doc = docs.get(this.options.docName);
    if (!doc) return;
    const mine = heldBy(doc, (owner) => owner === this);
    removeAwarenessStates(doc.awareness, mine, this);
    releaseAwareness(doc, this);
  }

  /**
   * Before a frame is sent to this connection (an edit or presence, its own node's members' or another
   * node's): a member removed from the group gets nothing more from its next one on, as it may send nothing.
   */
  mayReceive(): FrameRefusal | null | Promise<FrameRefusal | null> {
    return this.prepare();
  }

  /**
   * Applies only this connection's own entries (see sortAwareness): relays of other members' states are
   * dropped without counting against anything but the frame and byte rates every frame pays.
   */
  private admitAwareness(doc: WSSharedDoc, entries: AwarenessEntry[]): FrameVerdict {
    const { kept, claimed } = sortAwareness(doc, doc.awareness, this, entries);
    for (const client of claimed) this.awarenessClients.add(client);
    if (this.awarenessClients.size > NOTES_FRAME_LIMITS.maxAwarenessClientsPerConnection) {
      return this.refuse(NOTES.closeMalformed, 'too many awareness clients');
    }
    if (kept.length === 0) return drop;
    if (!this.awarenessBytes.take(kept.reduce((sum, entry) => sum + entryBytes(entry), 0))) {
      return this.refuse(NOTES.closeRateLimited, 'too much awareness');
    }
    claimAwareness(doc, this, claimed);
    return kept.length === entries.length ? deliver : { kind: 'deliver', frame: awarenessFrameOf(kept) };
  }

  private admitUpdate(doc: Y.Doc, update: Extract<NotesFrame, { kind: 'update' }>): FrameVerdict {
    // An update that cannot be applied yet waits as pending; refuse it before it is held if it would not fit.
    if (update.missingDependencies && update.bytes + pendingBytes(doc) > NOTES_FRAME_LIMITS.maxPendingBytes) {
      return this.refuse(NOTES.closeUnresolved, 'update depends on missing edits');
    }
    if (update.newClients > 0) {
      if (doc.store.clients.size + update.newClients > NOTES_FRAME_LIMITS.maxDocClients) {
        return this.refuse(NOTES.closeTooLarge, 'notes have too many clients');
      }
      const key = `${this.options.docName}\0${this.options.userId}`;
      if (!this.options.newClientsPerMember.take(key, update.newClients)) {
        return this.refuse(NOTES.closeRateLimited, 'too many new clients');
      }
    }
    // Only what is new can grow the document: a reconnect repeats the delete set and structs already held.
    const growth = {
      bytes: update.newBytes,
      structs: update.newStructs,
      deleteRanges: update.newDeleteRanges,
    };
    if (!admitDocGrowth(doc, growth)) return this.refuse(NOTES.closeTooLarge, 'notes too large');
    this.appliedUpdate = true;
    return deliver;
  }

  private refuse(code: number, reason: string): FrameVerdict {
    return { kind: 'refuse', ...this.refusal(code, reason) };
  }

  /** The one log line of a refusal: who, which group, why (no stack, no frame bytes). */
  private refusal(code: number, reason: string): FrameRefusal {
    const { log, userId, groupId } = this.options;
    log.warn({ userId, groupId, reason, code }, 'notes frame refused');
    return { code, reason };
  }
}

/**
 * Whether every struct of [clock, clock + length) of `client` is in the document and deleted. The same walk
 * Yjs does when it applies a delete range (readAndApplyDeleteSet), so it at most doubles that cost.
 */
export function deletedIn(doc: Y.Doc, client: number, clock: number, length: number): boolean {
  const structs = doc.store.clients.get(client);
  if (!structs || clock + length > Y.getState(doc.store, client)) return false;
  const end = clock + length;
  for (let i = Y.findIndexSS(structs, clock); i < structs.length; i++) {
    const struct = structs[i]!;
    if (struct.id.clock >= end) break;
    if (!struct.deleted) return false;
  }
  return true;
}
