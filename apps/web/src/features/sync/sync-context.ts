import { createContext, useContext, useSyncExternalStore } from 'react';
import type { CampusSyncClient, EphemeralState, SyncClient } from '@campus/sync';

/**
 * The signed-in user's sync client, provided by <SyncProvider> inside the signed-in shell. Screens read
 * Dexie (`useSync().db`) through live queries and write through the client's methods.
 */
export const SyncContext = createContext<SyncClient | null>(null);

export function useSync(): SyncClient {
  const client = useContext(SyncContext);
  if (!client) throw new Error('useSync needs a <SyncProvider> above it.');
  return client;
}

/** Connection status, presence, online count and typing: re-renders when any of them changes. */
export function useSyncState(): EphemeralState {
  const client = useSync();
  return useSyncExternalStore(client.subscribe, client.getState, client.getState);
}

/**
 * The client's confession and notification writes (queued through the outbox, so they survive offline), or
 * null for a client without them (test doubles of the chat screens).
 */
export function useCampusSync(): CampusSyncClient | null {
  const client = useSync();
  return 'reactConfession' in client ? (client as CampusSyncClient) : null;
}
