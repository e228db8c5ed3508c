import * as Y from 'yjs';
import type { WSSharedDoc } from '@y/websocket-server/utils';
import { NOTES_FRAME_LIMITS } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import type { RedisLink } from '../../realtime/redis-bus';
import { NotesAwarenessRelay } from './awareness-relay';
import { isAwarenessRelay } from './awareness-wire';
import { deletedIn } from './frame-guard';
import { MalformedFrame } from './frame-reader';
import { applyPeerUpdate, catchUpFromStore, type NotesPeers } from './persistence';
import { NOTES_GROUP_ID, type NotesStore } from './store';
import { base64Chars, fromBase64 } from './strict-base64';
import { walkUpdate, type UpdateSummary } from './update-walker';

export const NOTES_CHANNEL = 'notes';

/**
 * The largest update sent through Redis: a whole sync step 2 (what one client frame may carry) plus the
 * pending structs it may have completed. A larger one is announced instead (`c`), and read from the database.
 */
export const MAX_PEER_UPDATE_BYTES =
  NOTES_FRAME_LIMITS.maxSyncFrameBytes + NOTES_FRAME_LIMITS.maxPendingBytes;
/** `u`, a newline, a group id of at most 64 characters, a newline, then the update in base64. */
const MAX_BODY_CHARS = 2 + 64 + 1 + base64Chars(MAX_PEER_UPDATE_BYTES);

/**
 * Group notes across nodes (REDIS_URL). Every update a node applies first (a client's edit, after the frame
 * guard and once it is stored) goes out on the `notes` channel as `u\n<group id>\n<base64 update>`; every
 * other node that has the group's document loaded applies it with the STORED_ELSEWHERE origin (not stored or
 * published again) and its clients get it through the usual broadcast. Pub/sub is at most once, so a node
 * also reads the database for what it missed (Yjs updates are idempotent and commutative): when a message
 * depends on an update it does not have, when a client syncs (its answer waits for that read), after every
 * Redis reconnect, and every `catchUpMs`. A message is internal but still untrusted bytes: bounded, strictly
 * decoded and walked with the client-frame limits before Yjs sees it; anything else is dropped (and the
 * database read instead, which is the truth every node stored after checking). Awareness shares the channel
 * (awareness-relay.ts): ephemeral, never stored.
 */
export class NotesCrossNode implements NotesPeers {
  /** This node's loaded documents, by group. */
  private readonly docs = new Map<string, WSSharedDoc>();
  private readonly timer: NodeJS.Timeout;
  private readonly awareness: NotesAwarenessRelay;

  constructor(
    private readonly link: RedisLink,
    private readonly store: NotesStore,
    private readonly log: Logger,
    catchUpMs: number,
  ) {
    this.awareness = new NotesAwarenessRelay(link.nodeId, (body) => link.publish(NOTES_CHANNEL, body), log);
    link.listen(NOTES_CHANNEL, (body) => this.receive(body));
    link.onReconnect(() => {
      this.catchUpAll();
      this.awareness.reannounce();
    });
    this.timer = setInterval(() => this.catchUpAll(), catchUpMs);
    this.timer.unref();
  }

  loaded(groupId: string, doc: WSSharedDoc): void {
    this.docs.set(groupId, doc);
    this.awareness.loaded(groupId, doc);
  }

  unloaded(groupId: string, doc: WSSharedDoc): void {
    if (this.docs.get(groupId) === doc) this.docs.delete(groupId);
    this.awareness.unloaded(groupId, doc);
  }

  applied(groupId: string, update: Uint8Array): void {
    const body =
      update.byteLength > MAX_PEER_UPDATE_BYTES
        ? `c\n${groupId}`
        : `u\n${groupId}\n${Buffer.from(update).toString('base64')}`;
    this.link.publish(NOTES_CHANNEL, body);
  }

  /**
   * A client is about to sync with this node: the document first takes in what other nodes stored (the
   * answer waits for the promise; it never rejects).
   */
  beforeSync(groupId: string): Promise<void> | undefined {
    const doc = this.docs.get(groupId);
    return doc && this.catchUp(groupId, doc);
  }

  close(): void {
    clearInterval(this.timer);
    this.docs.clear();
    this.awareness.close();
  }

  private receive(body: string): void {
    try {
      if (isAwarenessRelay(body)) return this.awareness.receive(body);
      this.handle(body);
    } catch (err) {
      // Nothing from the channel may take the node down; the next catch-up reads the database.
      this.log.error({ err }, 'notes: applying an update from another node failed');
    }
  }

  private handle(body: string): void {
    if (body.length > MAX_BODY_CHARS) return this.dropped('oversized', body.length);
    const kindEnd = body.indexOf('\n');
    const groupEnd = kindEnd < 0 ? -1 : body.indexOf('\n', kindEnd + 1);
    const kind = kindEnd < 0 ? body : body.slice(0, kindEnd);
    const groupId = kindEnd < 0 ? '' : body.slice(kindEnd + 1, groupEnd < 0 ? undefined : groupEnd);
    if (!NOTES_GROUP_ID.test(groupId)) return this.dropped('no group', body.length);
    const doc = this.docs.get(groupId);
    if (kind === 'c' && groupEnd < 0) {
      if (doc) void this.catchUp(groupId, doc);
      return;
    }
    if (kind !== 'u' || groupEnd < 0) return this.dropped('unknown message', body.length);
    // Not loaded here: it is read from the database when a client opens it.
    if (!doc) return;
    const update = fromBase64(body.slice(groupEnd + 1));
    if (!update || update.byteLength === 0) return this.dropped('not base64', body.length, groupId);
    let shape: UpdateSummary;
    try {
      shape = walkUpdate(
        update,
        (client) => Y.getState(doc.store, client),
        (client, clock, length) => deletedIn(doc, client, clock, length),
      );
    } catch (err) {
      if (!(err instanceof MalformedFrame)) throw err;
      this.dropped(err.reason, update.byteLength, groupId);
      // A real update past the client-frame limits (a big sync that split items) is in the database.
      return void this.catchUp(groupId, doc);
    }
    // It builds on an update this node missed: the database has both (the sender stored before publishing).
    if (shape.missingDependencies) return void this.catchUp(groupId, doc);
    applyPeerUpdate(doc, update, {
      bytes: shape.newBytes,
      structs: shape.newStructs,
      deleteRanges: shape.newDeleteRanges,
    });
  }

  /** Reads what the document missed; resolves when it is applied, or when reading failed (logged). */
  private async catchUp(groupId: string, doc: WSSharedDoc): Promise<void> {
    try {
      const rows = await catchUpFromStore(doc);
      if (rows > 0) this.log.debug({ groupId, rows }, 'notes: caught up from the database');
    } catch (err) {
      if (this.store.isOpen) this.log.error({ err, groupId }, 'notes: catching up from the database failed');
    }
  }

  private catchUpAll(): void {
    // The server stopped (its database is closed): nothing is left to catch up, ever.
    if (!this.store.isOpen) return this.close();
    for (const [groupId, doc] of this.docs) void this.catchUp(groupId, doc);
  }

  private dropped(reason: string, size: number, groupId?: string): void {
    this.log.warn({ reason, size, groupId }, 'notes: dropped a message from another node');
  }
}
