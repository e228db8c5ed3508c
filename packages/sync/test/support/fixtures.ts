import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { AppNotification, Confession, DirectMessage, UserRef } from '@campus/protocol';
import {
  createSyncClient,
  openUserDatabase,
  type CampusSyncClient,
  type LocalConfession,
  type NetworkSignal,
} from '../../src';
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
): CampusSyncClient {
  return createSyncClient({
    self: ME,
    token: server.token,
    baseUrl: 'http://campus.test',
    wsUrl: 'ws://campus.test/ws',
    db,
    WebSocketImpl: server.WebSocketImpl,
    fetchImpl: server.fetch,
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

/** A confession someone else wrote, as the feed caches it. */
export function confession(extra: Partial<LocalConfession> = {}): LocalConfession {
  clock += 1000;
  const card: Confession = {
    id: crypto.randomUUID(),
    content: 'exam week is a lot',
    emotionTag: '😢',
    college: 'North College',
    createdAt: new Date(clock).toISOString(),
    imageUrl: null,
    nickname: 'nightowl',
    reactions: { relatable: 3, funny: 0, feelYou: 1, shareWorthy: 0 },
    myReactions: ['feelYou'],
    commentCount: 0,
    comments: [],
    isMine: false,
  };
  return { ...card, feedOrder: 0, ...extra };
}

export function notification(extra: Partial<AppNotification> = {}): AppNotification {
  clock += 1000;
  return {
    id: crypto.randomUUID(),
    type: 'confession_reaction',
    title: 'New reaction',
    body: 'Someone found your confession relatable',
    createdAt: new Date(clock).toISOString(),
    isRead: false,
    data: { confessionId: 'c-1' },
    ...extra,
  };
}
