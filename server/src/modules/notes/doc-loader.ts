import { docs, setPersistence, type WSSharedDoc } from '@y/websocket-server/utils';
import { closeNotesDoc, loadNotesDoc, notesDocOpened, type NotesBinding } from './persistence';

/** A loaded document, held so it stays loaded until the socket that asked for it was handed over (or not). */
export interface NotesDocLease {
  doc: WSSharedDoc;
  release(): void;
}

interface Loading {
  doc: Promise<WSSharedDoc>;
  leases: number;
}

/** Documents being read from the database, by name: connections arriving meanwhile wait for the same. */
const loading = new Map<string, Loading>();
/** Documents whose last connection closed and whose writes are still finishing, by name. */
const closing = new Map<string, Promise<void>>();
let installed = false;

/**
 * The group's document, loaded before any socket reaches it. @y/websocket-server would create a document
 * inside setupWSConnection and call a synchronous bindState, then answer the client's sync at once; here the
 * document is read (asynchronously, on either database) and put into its map first, so setupWSConnection
 * finds it complete. Call `release` right after handing the socket over (in the same turn as the promise
 * resolves): a document nobody took is closed again.
 */
export async function openNotesDoc(docName: string, binding: NotesBinding): Promise<NotesDocLease> {
  install();
  const open = docs.get(docName);
  // Served already: its connections keep it loaded past this turn.
  if (open) return { doc: open, release: () => {} };
  let entry = loading.get(docName);
  if (!entry) {
    entry = { doc: load(docName, binding), leases: 0 };
    loading.set(docName, entry);
    const loaded = entry;
    const done = () => {
      if (loading.get(docName) === loaded) loading.delete(docName);
    };
    loaded.doc.then(done, done);
  }
  entry.leases += 1;
  const held = entry;
  let doc: WSSharedDoc;
  try {
    doc = await held.doc;
  } catch (err) {
    held.leases -= 1;
    throw err;
  }
  return {
    doc,
    release: () => {
      held.leases -= 1;
      // Every socket that waited for it closed meanwhile: it would sit in the map with nobody to close it.
      if (held.leases === 0 && doc.conns.size === 0 && docs.get(docName) === doc) {
        docs.delete(docName);
        void writeState(docName, doc).then(() => doc.destroy());
      }
    },
  };
}

async function load(docName: string, binding: NotesBinding): Promise<WSSharedDoc> {
  // The same group closed a moment ago: its last writes and compaction come first, then the read sees them.
  await closing.get(docName);
  const doc = await loadNotesDoc(docName, binding);
  docs.set(docName, doc);
  notesDocOpened(doc);
  return doc;
}

/** Called by @y/websocket-server when a document's last connection closed (and by release above). */
function writeState(docName: string, doc: WSSharedDoc): Promise<void> {
  const done = closeNotesDoc(doc);
  closing.set(docName, done);
  void done.then(() => {
    if (closing.get(docName) === done) closing.delete(docName);
  });
  return done;
}

/**
 * Resolves when every notes document that closed has finished its writes: the server's stop() waits for it
 * before it closes the database. Its sockets were closed just before; their close events (which start those
 * writes) may still be a turn away.
 */
export async function notesWritesSettled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all(closing.values());
}

function install(): void {
  if (installed) return;
  installed = true;
  setPersistence({
    provider: null,
    // Never reached: every document is loaded and put into the map by openNotesDoc before its first socket.
    bindState: () => {},
    writeState,
  });
}
