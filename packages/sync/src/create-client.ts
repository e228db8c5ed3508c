import type { SyncClient, SyncClientOptions } from './client-api';
import type { LocalConfession } from './database';
import { campusFeatures } from './features';
import { loadDirectPage, loadGroupPage } from './features/chat/history';
import type { OpenRooms } from './features/chat/open-rooms';
import { storeConfessions } from './features/confessions/cache';
import { loadFriendsState } from './features/friends/fetch';
import { loadNotifications } from './features/notifications/fetch';
import { SyncEngine } from './sync-client';

/** The engine with Campus Talk's features: their tables, their REST loads into the cache, chat's rooms. */
class CampusClient extends SyncEngine implements SyncClient {
  private readonly rooms: OpenRooms;

  constructor(options: SyncClientOptions) {
    // The engine builds the features in its constructor; the rooms they made serve the client API.
    let rooms: OpenRooms | undefined;
    super(options, (host) => {
      const built = campusFeatures(host);
      rooms = built.rooms;
      return built.features;
    });
    if (!rooms) throw new Error('the engine did not build its features');
    this.rooms = rooms;
  }

  loadDirectPage(partnerId: string, page: number): Promise<number> {
    return loadDirectPage(this.rest, partnerId, page);
  }

  loadGroupPage(groupId: string, page: number): Promise<number> {
    return loadGroupPage(this.rest, groupId, page);
  }

  cacheConfessions(rows: readonly LocalConfession[]): Promise<void> {
    return storeConfessions(this.db, rows);
  }

  loadNotifications(): Promise<number> {
    return loadNotifications(this.rest);
  }

  loadFriends(): Promise<void> {
    return loadFriendsState(this.rest);
  }

  joinChat(peerId: string): () => void {
    return this.rooms.joinChat(peerId);
  }

  joinGroup(groupId: string): () => void {
    return this.rooms.joinGroup(groupId);
  }

  markGroupSeen(groupId: string): Promise<void> {
    return this.rooms.markGroupSeen(groupId);
  }
}

export function createSyncClient(options: SyncClientOptions): SyncClient {
  return new CampusClient(options);
}
