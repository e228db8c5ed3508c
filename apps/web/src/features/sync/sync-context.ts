import { createContext, useContext, useSyncExternalStore } from 'react';
import type { EphemeralState, SyncClient } from '@campus/sync';

/**
 * The signed-in user's sync client, provided by <SyncProvider> inside the signed-in shell. Screens read
 * Dexie (`useSync().db`) through live queries and write through `useSync().run(writeX, ...args)`.
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
