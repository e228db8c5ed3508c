import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import { NOTES, NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX, REALTIME_TIMING } from '@campus/protocol';
import { loadGroupNotes } from './notes-database';
import { createNotesStore, notesSocketBase, type NotesConnector, type NotesStatus } from './notes-session';

function liveStatus(provider: WebsocketProvider): NotesStatus {
  if (provider.synced) return 'synced';
  if (provider.wsconnected) return 'connecting';
  // Before the first failure we are still trying; after it, say plainly that edits stay on this device.
  if (!navigator.onLine || provider.wsUnsuccessfulReconnects > 0) return 'offline';
  return 'connecting';
}

/**
 * The real connector: the document from this user's notes database (y-dexie), synced with the server's
 * `/notes/<groupId>` through y-websocket. The token rides in the Sec-WebSocket-Protocol header, never the URL.
 */
export const connectGroupNotes: NotesConnector = ({ userId, groupId, token, serverUrl }) => {
  const store = createNotesStore({ doc: null, status: 'connecting' });
  let teardown: (() => void) | null = null;
  let destroyed = false;

  const start = (doc: Y.Doc, release: () => void) => {
    if (destroyed) return release();
    const provider = new WebsocketProvider(notesSocketBase(serverUrl), groupId, doc, {
      protocols: [NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX + token],
      disableBc: true,
      maxBackoffTime: REALTIME_TIMING.reconnectMaxMs,
    });
    let final: NotesStatus | null = null;
    const update = () => store.set({ doc, status: final ?? liveStatus(provider) });
    provider.on('status', update);
    provider.on('sync', update);
    provider.on('connection-close', update);
    provider.on('connection-error', update);
    provider.on('closed', ({ code }) => {
      final = code === NOTES.closeTooLarge ? 'too-large' : 'refused';
      update();
    });
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    update();
    teardown = () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
      provider.destroy();
      release();
    };
  };

  loadGroupNotes(userId, groupId).then(
    ({ doc, release }) => start(doc, release),
    // No IndexedDB (private mode, quota): still edit live, just without the offline copy.
    () => start(new Y.Doc(), () => undefined),
  );

  return {
    subscribe: store.subscribe,
    getSnapshot: store.getSnapshot,
    destroy() {
      destroyed = true;
      teardown?.();
    },
  };
};
