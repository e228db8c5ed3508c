import { vi } from 'vitest';
import type { FriendRequest, UserRef } from '@campus/protocol';
import type { SyncClientOptions } from '@campus/sync';
import { fakeSyncFactory, type FakeSyncClient } from './sync-provider-fake';

/** Test data and a sync factory whose loadFriends the test decides (friends-*.test.tsx). */
export const SLOW = { timeout: 5000 };

export const person = (id: string, firstName: string, lastName: string): UserRef => ({
  id,
  firstName,
  lastName,
  profilePictureUrl: null,
});

export const sam = person('u-sam', 'Sam', 'Lee');
export const ana = person('u-ana', 'Ana', 'Costa');
export const zoe = person('u-zoe', 'Zoe', 'Park');

export function request(id: string, from: UserRef, createdAt = '2026-11-20T10:00:00.000Z'): FriendRequest {
  return { _id: id, id, status: 'pending', from, createdAt };
}

/** Each client made answers loadFriends with `load()` (pending to hold the first load, rejected to fail it). */
export function friendsSync(load: () => Promise<void>, online: readonly string[] = []) {
  const sync = fakeSyncFactory({ online: new Set(online) });
  const factory = (options: SyncClientOptions): FakeSyncClient => {
    const client = sync.factory(options);
    client.loadFriends = vi.fn(load);
    return client;
  };
  return { ...sync, factory };
}
