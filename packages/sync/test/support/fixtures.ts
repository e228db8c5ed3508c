import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { DirectMessage, UserRef } from '@campus/protocol';
import { createSyncClient, openUserDatabase, type NetworkSignal, type SyncClient } from '../../src';
import type { FakeServer } from './fake-server';

export const ME: UserRef = { id: 'user-me', firstName: 'Ana', lastName: 'Lee', profilePictureUrl: null };
export const BO: UserRef = {
  id: 'user-bo',
  firstName: 'Bo',
  lastName: 'Kim',
  profilePictureUrl: '/a/bo.png',
};
export const CY: UserRef = { id: 'user-cy', firstName: 'Cy', lastName: 'Ray', profilePictureUrl: null };

/** Reconnects in tens of milliseconds so tests run fast; the real bounds are tested on reconnectDelay. */
export const FAST = {
  reconnectMinMs: 10,
  reconnectMaxMs: 40,
  connectTimeoutMs: 1000,
  heartbeatMs: 1000,
  deadPeerMs: 3000,
};

/** A client on its own fresh IndexedDB (a separate device), talking to `server`. */
export function makeClient(
  server: FakeServer,
  db = openUserDatabase(ME.id, { indexedDB: new IDBFactory(), IDBKeyRange }),
  timing: Partial<typeof FAST> = {},
  network: NetworkSignal | null = null,
): SyncClient {
  return createSyncClient({
    self: ME,
    token: server.token,
    baseUrl: 'http://campus.test',
    wsUrl: 'ws://campus.test/ws',
    db,
    WebSocketImpl: server.WebSocketImpl,
    timing: { ...FAST, ...timing },
    network,
  });
}

/** A network switch the test flips, standing in for the browser's online/offline events. */
export function fakeNetwork() {
  let up = true;
  const listeners = new Set<(online: boolean) => void>();
  return {
    signal: {
      online: () => up,
      onChange(listener: (online: boolean) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    } satisfies NetworkSignal,
    set(online: boolean) {
      up = online;
      for (const listener of listeners) listener(online);
    },
  };
}

let clock = Date.parse('2026-11-23T09:00:00.000Z');

/** A message from `from` to me with an increasing timestamp. */
export function incoming(from: UserRef, content: string, extra: Partial<DirectMessage> = {}): DirectMessage {
  clock += 1000;
  return {
    id: crypto.randomUUID(),
    from,
    to: ME,
    content,
    timestamp: new Date(clock).toISOString(),
    status: 'sent',
    attachmentUrl: null,
    attachmentType: null,
    replyTo: null,
    reactions: [],
    ...extra,
  };
}
