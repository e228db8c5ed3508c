import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { AppNotification, Confession, DirectMessage, UserRef } from '@campus/protocol';
import { createSyncClient, openUserDatabase, type LocalConfession, type SyncClient } from '../../src';

export const ME: UserRef = { id: 'user-me', firstName: 'Ana', lastName: 'Lee', profilePictureUrl: null };
export const BO: UserRef = {
  id: 'user-bo',
  firstName: 'Bo',
  lastName: 'Kim',
  profilePictureUrl: '/a/bo.png',
};
export const CY: UserRef = { id: 'user-cy', firstName: 'Cy', lastName: 'Ray', profilePictureUrl: null };

/**
 * A client on its own fresh IndexedDB (a separate device) that is never started: its writes, rollbacks and
 * change appliers run for real, and the test plays the server's answers through support/engine.ts. What needs
 * the wire (pulls, reconnects, exactly once) is tested against the real server in tests/system.
 */
export function makeClient(
  db = openUserDatabase(ME.id, { indexedDB: new IDBFactory(), IDBKeyRange }),
  fetchImpl: typeof fetch = () => Promise.reject(new TypeError('no server in unit tests')),
): SyncClient {
  return createSyncClient({
    self: ME,
    token: 'session-token-0123456789',
    baseUrl: 'http://campus.test',
    wsUrl: 'ws://127.0.0.1:9/ws',
    db,
    fetchImpl,
    network: null,
  });
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
