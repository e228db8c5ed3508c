import { createContext } from 'react';
import { createSyncClient, openUserDatabase, type SyncClient, type SyncClientOptions } from '@campus/sync';

/** What SyncProvider needs to make a client; tests put a fake in its place. */
export type SyncClientFactory = (options: SyncClientOptions) => SyncClient;

export const createUserSyncClient: SyncClientFactory = (options) =>
  createSyncClient({ ...options, db: options.db ?? openUserDatabase(options.self.id) });

export const SyncFactoryContext = createContext<SyncClientFactory>(createUserSyncClient);

/**
 * The realtime endpoint beside the API: the page's own origin in the browser (serverUrl ''), the configured
 * server on the desktop.
 */
export function websocketUrl(
  serverUrl: string,
  page: Pick<Location, 'protocol' | 'host'> = location,
): string {
  if (!serverUrl) return `${page.protocol === 'https:' ? 'wss' : 'ws'}://${page.host}/ws`;
  const url = new URL(serverUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/ws`;
  url.search = '';
  url.hash = '';
  return url.toString();
}
