import type * as Y from 'yjs';

/**
 * synced: the server has everything this device has. connecting: a socket is opening or syncing.
 * offline: no server; edits stay in this device's database and go out on reconnect.
 * too-large / refused: the server closed the notes for good (size limit, membership).
 */
export type NotesStatus = 'connecting' | 'synced' | 'offline' | 'too-large' | 'refused';

export interface NotesSnapshot {
  /** Null until the document has been loaded from this device. */
  doc: Y.Doc | null;
  status: NotesStatus;
}

/** One open notes document: a tiny external store for useSyncExternalStore. */
export interface NotesSession {
  subscribe(listener: () => void): () => void;
  getSnapshot(): NotesSnapshot;
  destroy(): void;
}

export interface NotesTarget {
  userId: string;
  groupId: string;
  token: string;
  /** platform.serverUrl: '' for the page's own origin. */
  serverUrl: string;
}

export type NotesConnector = (target: NotesTarget) => NotesSession;

/** The store half of a session; connectors feed it and add their own teardown. */
export function createNotesStore(initial: NotesSnapshot) {
  let snapshot = initial;
  const listeners = new Set<() => void>();
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    set(next: Partial<NotesSnapshot>) {
      if (Object.entries(next).every(([key, value]) => snapshot[key as keyof NotesSnapshot] === value))
        return;
      snapshot = { ...snapshot, ...next };
      listeners.forEach((listener) => listener());
    },
  };
}

/** The notes endpoint beside the API: the page's own origin in the browser, the configured server on desktop. */
export function notesSocketBase(
  serverUrl: string,
  page: Pick<Location, 'protocol' | 'host'> = location,
): string {
  if (!serverUrl) return `${page.protocol === 'https:' ? 'wss' : 'ws'}://${page.host}/notes`;
  const url = new URL(serverUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/notes`;
  url.search = '';
  url.hash = '';
  return url.toString();
}
