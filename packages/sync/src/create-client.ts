import type {
  CallClientFrame,
  CallServerFrame,
  RandomClientFrame,
  RandomServerFrame,
} from '@campus/protocol';
import type { SyncClient, SyncClientOptions } from './client-api';
import type { LocalConfession } from './database';
import { campusFeatures } from './features';
import { loadCallLogs } from './features/calls/fetch';
import type { CallSignals } from './features/calls/signals';
import { loadDirectPage, loadGroupPage } from './features/chat/history';
import type { OpenRooms } from './features/chat/open-rooms';
import { storeConfessions } from './features/confessions/cache';
import { loadFriendsState } from './features/friends/fetch';
import { loadNotifications } from './features/notifications/fetch';
import type { RandomSignals } from './features/random/signals';
import { SyncEngine } from './sync-client';

/**
 * The engine with Campus Talk's features: their tables, their REST loads into the cache, chat's rooms, the
 * call signalling and random talk's frames.
 */
class CampusClient extends SyncEngine implements SyncClient {
  private readonly rooms: OpenRooms;
  private readonly calls: CallSignals;
  private readonly random: RandomSignals;

  constructor(options: SyncClientOptions) {
    // The engine builds the features in its constructor; the rooms and signals they made serve the client API.
    let built: ReturnType<typeof campusFeatures> | undefined;
    super(options, (host) => {
      built = campusFeatures(host);
      return built.features;
    });
    if (!built) throw new Error('the engine did not build its features');
    this.rooms = built.rooms;
    this.calls = built.calls;
    this.random = built.random;
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

  loadCallLogs(before?: string): Promise<{ nextBefore: string | null }> {
    return loadCallLogs(this.rest, before);
  }

  sendCallFrame(frame: CallClientFrame): boolean {
    return this.calls.sendFrame(frame);
  }

  onCallFrame(listener: (frame: CallServerFrame) => void): () => void {
    return this.calls.listen(listener);
  }

  sendRandomFrame(frame: RandomClientFrame): boolean {
    return this.random.sendFrame(frame);
  }

  onRandomFrame(listener: (frame: RandomServerFrame) => void): () => void {
    return this.random.listen(listener);
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
