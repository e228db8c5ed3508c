import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { setupWSConnection } from '@y/websocket-server/utils';
import { notesDocName } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import type { NotesCrossNode } from './cross-node';
import { NotesFrameGuard } from './frame-guard';
import { GuardedSocket } from './guarded-socket';
import type { KeyedBuckets } from './keyed-buckets';
import { registerNotesDoc } from './persistence';
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
  /** The access policy's answer for this member, asked per edit (see FrameGuardOptions.mayEdit). */
  mayEdit: () => boolean;
  /** The other nodes (REDIS_URL); undefined when this node is alone. */
  peers: NotesCrossNode | undefined;
}

/**
 * Hands an authorized socket to @y/websocket-server. Every frame passes NotesFrameGuard first: the sender
 * must still be a member (one primary-key probe, so a member removed from the group can no longer write),
 * stay within the connection's rates, send only frames that decode within NOTES_FRAME_LIMITS, and keep the
 * document (pending edits included) under NOTES.maxDocBytes.
 */
export function openNotesConnection(raw: WebSocket, request: IncomingMessage, conn: NotesConnection): void {
  const { groupId, userId, store, log, now, newClientsPerMember, mayEdit, peers } = conn;
  const docName = notesDocName(groupId);

  registerNotesDoc(docName, { store, log, groupId, peers });
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
  // GuardedSocket implements exactly the members setupWSConnection touches (on, send, ping, close,
  // readyState, binaryType); its declared parameter type is the whole `ws` class.
  setupWSConnection(guarded as unknown as WebSocket, request, { docName, gc: true });
}
