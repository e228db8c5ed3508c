import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { docs, setupWSConnection } from '@y/websocket-server/utils';
import { CLOSE_CODES, NOTES, notesDocName } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import { GuardedSocket, type FrameRefusal } from './guarded-socket';
import { registerNotesDoc, wouldExceedDocLimit } from './persistence';
import type { NotesStore } from './store';

export interface NotesConnection {
  groupId: string;
  userId: string;
  store: NotesStore;
  log: Logger;
}

/** y-protocols message type 0 (sync) with sub-type 1 (step 2) or 2 (update): the frames that add content. */
function addsContent(frame: Uint8Array): boolean {
  return frame[0] === 0 && (frame[1] === 1 || frame[1] === 2);
}

/**
 * Hands an authorized socket to @y/websocket-server. Every frame is admitted first: the sender must still be
 * a member (one primary-key probe, so a member removed from the group can no longer write), and content must
 * keep the document under NOTES.maxDocBytes.
 */
export function openNotesConnection(raw: WebSocket, request: IncomingMessage, conn: NotesConnection): void {
  const { groupId, userId, store, log } = conn;
  const docName = notesDocName(groupId);

  const admit = (data: ArrayBuffer | Buffer): FrameRefusal | null => {
    if (!store.isOpen) return { code: CLOSE_CODES.shuttingDown, reason: 'server stopping' };
    if (!store.isMember(groupId, userId)) return { code: CLOSE_CODES.forbidden, reason: 'not a member' };
    const frame = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
    if (!addsContent(frame)) return null;
    const doc = docs.get(docName);
    if (doc && wouldExceedDocLimit(doc, frame.byteLength)) {
      log.warn({ groupId, userId, bytes: frame.byteLength }, 'notes update refused: document too large');
      return { code: NOTES.closeTooLarge, reason: 'notes too large' };
    }
    return null;
  };

  registerNotesDoc(docName, { store, log, groupId });
  const guarded = new GuardedSocket(raw, admit);
  // GuardedSocket implements exactly the members setupWSConnection touches (on, send, ping, close,
  // readyState, binaryType); its declared parameter type is the whole `ws` class.
  setupWSConnection(guarded as unknown as WebSocket, request, { docName, gc: true });
}
