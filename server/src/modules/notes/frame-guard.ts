import * as Y from 'yjs';
import { docs } from '@y/websocket-server/utils';
import { CLOSE_CODES, NOTES, NOTES_FRAME_LIMITS } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import { decodeNotesFrame, type NotesFrame } from './frame-decoder';
import { MalformedFrame } from './frame-reader';
import type { FrameGate, FrameRefusal } from './guarded-socket';
import { dropPending, pendingBytes, schedulePendingDrop } from './pending';
import { wouldExceedDocLimit } from './persistence';
import type { NotesStore } from './store';
import { TokenBucket } from './token-bucket';

export interface FrameGuardOptions {
  docName: string;
  groupId: string;
  userId: string;
  store: NotesStore;
  log: Logger;
  now?: () => number;
}

/**
 * The rules one notes connection's frames must pass before @y/websocket-server applies them: still a member,
 * within the connection's rates, decodable within NOTES_FRAME_LIMITS, within the awareness caps, not leaving
 * more than maxPendingBytes waiting, and keeping the document under NOTES.maxDocBytes. Each refusal logs one
 * line (user, group, reason) and closes the connection; the refused frame is never applied.
 */
export class NotesFrameGuard implements FrameGate {
  private readonly frames: TokenBucket;
  private readonly bytes: TokenBucket;
  private readonly awarenessBytes: TokenBucket;
  private readonly syncRequests: TokenBucket;
  private readonly awarenessClients = new Set<number>();
  private appliedUpdate = false;

  constructor(private readonly options: FrameGuardOptions) {
    const now = options.now ?? Date.now;
    this.frames = new TokenBucket(NOTES_FRAME_LIMITS.frames, now);
    this.bytes = new TokenBucket(NOTES_FRAME_LIMITS.bytes, now);
    this.awarenessBytes = new TokenBucket(NOTES_FRAME_LIMITS.awarenessBytes, now);
    this.syncRequests = new TokenBucket(NOTES_FRAME_LIMITS.syncRequests, now);
  }

  admit(frame: Uint8Array | null): FrameRefusal | null {
    const { store, groupId, userId } = this.options;
    this.appliedUpdate = false;
    if (!store.isOpen) return { code: CLOSE_CODES.shuttingDown, reason: 'server stopping' };
    // Rates first: they cost nothing and cut a flood before any decoding or database probe.
    if (!this.frames.take(1)) return this.refuse(NOTES.closeRateLimited, 'too many frames');
    if (frame === null) return this.refuse(NOTES.closeMalformed, 'text frame');
    if (!this.bytes.take(frame.byteLength)) return this.refuse(NOTES.closeRateLimited, 'too many bytes');
    if (!store.isMember(groupId, userId)) return { code: CLOSE_CODES.forbidden, reason: 'not a member' };

    const doc = docs.get(this.options.docName);
    let decoded: NotesFrame;
    try {
      decoded = decodeNotesFrame(frame, (client) => (doc ? Y.getState(doc.store, client) : 0));
    } catch (err) {
      if (err instanceof MalformedFrame) return this.refuse(NOTES.closeMalformed, err.reason);
      throw err;
    }
    switch (decoded.kind) {
      case 'sync-request':
        return this.syncRequests.take(1)
          ? null
          : this.refuse(NOTES.closeRateLimited, 'too many sync requests');
      case 'awareness':
        return this.admitAwareness(decoded.bytes, decoded.clients);
      case 'update':
        return doc ? this.admitUpdate(doc, decoded.bytes, decoded.missingDependencies) : null;
    }
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
      return this.refuse(NOTES.closeUnresolved, 'too many unresolved edits');
    }
    schedulePendingDrop(doc, (bytes) =>
      log.warn({ groupId, bytes }, 'notes: dropped pending updates that stayed unresolved'),
    );
    return null;
  }

  private admitAwareness(bytes: number, clients: number[]): FrameRefusal | null {
    if (!this.awarenessBytes.take(bytes)) return this.refuse(NOTES.closeRateLimited, 'too much awareness');
    for (const client of clients) this.awarenessClients.add(client);
    if (this.awarenessClients.size > NOTES_FRAME_LIMITS.maxAwarenessClientsPerConnection) {
      return this.refuse(NOTES.closeMalformed, 'too many awareness clients');
    }
    return null;
  }

  private admitUpdate(doc: Y.Doc, bytes: number, missingDependencies: boolean): FrameRefusal | null {
    // An update that cannot be applied yet waits as pending; refuse it before it is held if it would not fit.
    if (missingDependencies && bytes + pendingBytes(doc) > NOTES_FRAME_LIMITS.maxPendingBytes) {
      return this.refuse(NOTES.closeUnresolved, 'update depends on missing edits');
    }
    if (wouldExceedDocLimit(doc, bytes)) {
      this.options.log.warn(
        { groupId: this.options.groupId, userId: this.options.userId, bytes },
        'notes update refused: document too large',
      );
      return { code: NOTES.closeTooLarge, reason: 'notes too large' };
    }
    this.appliedUpdate = true;
    return null;
  }

  /** The one log line of a refusal: who, which group, why (no stack, no frame bytes). */
  private refuse(code: number, reason: string): FrameRefusal {
    const { log, userId, groupId } = this.options;
    log.warn({ userId, groupId, reason, code }, 'notes frame refused');
    return { code, reason };
  }
}
