import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { readSession } from '../../lib/session-storage';
import { usePlatform } from '../../platform/PlatformContext';
import { useSignedInUser } from '../session/session-context';
import { connectGroupNotes } from './connect-group-notes';
import type { NotesConnector, NotesSession, NotesSnapshot } from './notes-session';

/** Which connector opens notes; tests put an in-memory one here. */
export const NotesConnectorContext = createContext<NotesConnector>(connectGroupNotes);

const LOADING: NotesSnapshot = { doc: null, status: 'connecting' };

/**
 * A stable store for React that follows whichever session is open now: sessions come and go with the effect
 * (group or user changes, StrictMode's double mount) while the component keeps one subscription.
 */
function createSessionHolder() {
  let current: NotesSession | null = null;
  let unsubscribe = () => {};
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: (): NotesSnapshot => current?.getSnapshot() ?? LOADING,
    attach(session: NotesSession) {
      unsubscribe();
      current = session;
      unsubscribe = session.subscribe(notify);
      notify();
    },
    detach(session: NotesSession) {
      if (current !== session) return;
      unsubscribe();
      unsubscribe = () => {};
      current = null;
      notify();
    },
  };
}

/** The signed-in user's notes document of one group and its sync status, open while the caller is mounted. */
export function useGroupNotes(groupId: string): NotesSnapshot {
  const connect = useContext(NotesConnectorContext);
  const userId = useSignedInUser().id;
  const { serverUrl } = usePlatform();
  const token = readSession()?.token ?? '';
  const [holder] = useState(createSessionHolder);

  useEffect(() => {
    const opened = connect({ userId, groupId, token, serverUrl });
    holder.attach(opened);
    return () => {
      holder.detach(opened);
      opened.destroy();
    };
  }, [holder, connect, userId, groupId, token, serverUrl]);

  return useSyncExternalStore(holder.subscribe, holder.getSnapshot);
}
