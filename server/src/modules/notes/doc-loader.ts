import { docs, setPersistence, type WSSharedDoc } from '@y/websocket-server/utils';
import { WebSocket } from 'ws';
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
/** Notes sockets whose close event has not come yet, each with a promise of it. */
const unclosed = new Map<WebSocket, Promise<void>>();
/**
 * How long a stopping server waits for its notes sockets' close events at most. They come a few turns after
 * the listener closed (ws emits `close` once its receiver has finished), so this is only a bound.
 */
const SOCKETS_CLOSE_MS = 2_000;
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
 * Counted until its close event, which is where the socket's awareness states are removed (and that removal
 * relayed to the other nodes) and where a document's last socket starts its writes.
 */
export function trackNotesSocket(raw: WebSocket): void {
  if (raw.readyState === WebSocket.CLOSED) return;
  const closed = new Promise<void>((resolve) => raw.once('close', () => resolve()));
  unclosed.set(raw, closed);
  void closed.then(() => unclosed.delete(raw));
}

/**
 * Resolves when every notes socket being closed has had its close event and every notes document that
 * closed has finished its writes: the server's stop() waits for it before it closes Redis and the database.
 * Its sockets were closed just before; their close events may still be a few turns away. (Sockets still
 * open belong to another server in the same process, in tests: not waited for.)
 */
export async function notesWritesSettled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, SOCKETS_CLOSE_MS)));
  const closingSockets = [...unclosed].filter(([raw]) => raw.readyState === WebSocket.CLOSING);
  await Promise.race([Promise.all(closingSockets.map(([, closed]) => closed)), deadline]);
  clearTimeout(timer);
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
