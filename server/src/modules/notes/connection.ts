import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { setupWSConnection } from '@y/websocket-server/utils';
import { CLOSE_CODES, notesDocName, type DocumentStatus } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import type { NotesCrossNode } from './cross-node';
import { openNotesDoc, trackNotesSocket } from './doc-loader';
import { NotesFrameGuard } from './frame-guard';
import { GuardedSocket } from './guarded-socket';
import type { KeyedBuckets } from './keyed-buckets';
import type { NotesStore } from './store';

export interface NotesConnection {
  groupId: string;
  userId: string;
  store: NotesStore;
  log: Logger;
  /** The server's clock (deps.now). */
  now: () => number;
  /** The server's new-client-id budget (see FrameGuardOptions.newClientsPerMember). */
  newClientsPerMember: KeyedBuckets;
  /** The access policy for a document status, asked per edit (see FrameGuardOptions.mayEdit). */
  mayEdit: (status: DocumentStatus | null) => boolean;
  /** The other nodes (REDIS_URL); undefined when this node is alone. */
  peers: NotesCrossNode | undefined;
}

/**
 * Hands an authorized socket to @y/websocket-server once the group's document is loaded; its frames wait
 * until then. Every frame passes NotesFrameGuard first: the sender must still be a member (read after the
 * frame arrived, so a member removed from the group can no longer write), stay within the connection's
 * rates, send only frames that decode within NOTES_FRAME_LIMITS, and keep the document (pending edits
 * included) under NOTES.maxDocBytes.
 */
export function openNotesConnection(raw: WebSocket, request: IncomingMessage, conn: NotesConnection): void {
  const { groupId, userId, store, log, now, newClientsPerMember, mayEdit, peers } = conn;
  const docName = notesDocName(groupId);
  trackNotesSocket(raw);

  const guarded = new GuardedSocket(
    raw,
    new NotesFrameGuard({
      docName,
      groupId,
      userId,
      store,
      log,
      now,
      newClientsPerMember,
      mayEdit,
      beforeSync: peers && (() => peers.beforeSync(groupId)),
    }),
  );
  openNotesDoc(docName, { store, log, groupId, peers }).then(
    (lease) => {
      // Closed while the document loaded (the client left, or its session was revoked): nothing to serve.
      if (raw.readyState === WebSocket.OPEN) {
        // GuardedSocket implements exactly the members setupWSConnection touches (on, send, ping, close,
        // readyState, binaryType); its declared parameter type is the whole `ws` class.
        setupWSConnection(guarded as unknown as WebSocket, request, { docName, gc: true });
        guarded.start();
      }
      lease.release();
    },
    (err: unknown) => {
      if (!store.isOpen) return raw.close(CLOSE_CODES.shuttingDown, 'server stopping');
      log.error({ err, groupId }, 'notes: loading the document failed');
      // The client reconnects and the document is read again.
      raw.close(CLOSE_CODES.serverError, 'notes unavailable');
    },
  );
}
