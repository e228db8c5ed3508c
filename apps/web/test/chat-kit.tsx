// liveQuery does nothing without a global indexedDB (Dexie checks it), so install fake-indexeddb's first.
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { render, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type {
  CallClientFrame,
  CallServerFrame,
  DirectMessage,
  GroupMessage,
  MessageErrorFrame,
  RandomClientFrame,
  RandomServerFrame,
  UserRef,
} from '@campus/protocol';
import {
  createSyncClient,
  openUserDatabase,
  type CampusDatabase,
  type ClientWrite,
  type EphemeralState,
  type LocalConfession,
  type LocalDirectMessage,
  type SyncClient,
  type TypingTarget,
} from '@campus/sync';
import { CallLayer } from '../src/features/calls/CallLayer';
import { ChatPage } from '../src/features/chat/ChatPage';
import { GroupChatPage } from '../src/features/group-chat/GroupChatPage';
import { SyncContext } from '../src/features/sync/sync-context';
import { ThemeProvider } from '../src/features/theme/ThemeProvider';
import { createApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';
import { PlatformProvider } from '../src/platform';
import { SessionContext, type SessionContextValue } from '../src/features/session/session-context';
import { fakePlatform, student } from './helpers';

export const ME: UserRef = { id: 'u-alex', firstName: 'Alex', lastName: 'Rivera', profilePictureUrl: null };
export const SAM: UserRef = { id: 'u-sam', firstName: 'Sam', lastName: 'Lee', profilePictureUrl: null };
export const KIM: UserRef = { id: 'u-kim', firstName: 'Kim', lastName: 'Park', profilePictureUrl: null };

type Call = [method: string, ...args: unknown[]];

/**
 * A SyncClient over a real Dexie database (fake-indexeddb): writes are the real client's optimistic writes
 * (a real client that never connects runs them, so they land in Dexie and its outbox), and every call is
 * recorded so tests can see what the screen asked for: a write as its name (`writeDirectMessage`) and args.
 */
export class FakeSyncClient implements SyncClient {
  readonly db: CampusDatabase = openUserDatabase(ME.id, { indexedDB: new IDBFactory(), IDBKeyRange });
  readonly userId = ME.id;
  readonly calls: Call[] = [];
  private state: EphemeralState = {
    status: 'online',
    online: new Set(),
    onlineCount: null,
    typing: new Map(),
    lastActive: new Map(),
  };
  private readonly listeners = new Set<() => void>();
  private readonly errorListeners = new Set<(frame: MessageErrorFrame) => void>();
  private readonly callListeners = new Set<(frame: CallServerFrame) => void>();
  /** The call frames the screens sent while online, in order (offline sends are refused, as the real client does). */
  readonly callFrames: CallClientFrame[] = [];
  private readonly randomListeners = new Set<(frame: RandomServerFrame) => void>();
  /** The random-talk frames the screens sent while online, in order (offline sends are refused). */
  readonly randomFrames: RandomClientFrame[] = [];
  /** What the server holds of call history, per page (`before` undefined for the first); replaced by tests. */
  callLogPages: (before?: string) => Promise<{ nextBefore: string | null }> = async () => ({
    nextBefore: null,
  });
  /** What the server holds beyond the cache, per page; replaced by tests. */
  directPages: (partnerId: string, page: number) => Promise<number> = async () => 0;
  groupPages: (groupId: string, page: number) => Promise<number> = async () => 0;
  /** Runs the features' writes for real; it is never started, so nothing leaves this test. */
  private readonly real: SyncClient = createSyncClient({
    self: ME,
    token: 'test-token',
    baseUrl: '',
    wsUrl: 'ws://127.0.0.1:9/ws',
    db: this.db,
    network: null,
  });

  start(): void {}
  async stop(): Promise<void> {}
  getState = (): EphemeralState => this.state;
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  setState(patch: Partial<EphemeralState>): void {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((listener) => listener());
  }
  onMessageError(listener: (frame: MessageErrorFrame) => void) {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }
  /**
   * Delivers a refusal once the screen listens: a render that React committed outside act (a live query
   * resolving) runs its subscribing effect a little later, so emitting at once could reach nobody.
   */
  async emitError(frame: MessageErrorFrame): Promise<void> {
    await waitFor(() => {
      if (this.errorListeners.size === 0) throw new Error('nothing listens for message_error yet');
    });
    this.errorListeners.forEach((listener) => listener(frame));
  }
  callsOf(method: string): unknown[][] {
    return this.calls.filter((call) => call[0] === method).map((call) => call.slice(1));
  }

  run<A extends unknown[], R>(write: ClientWrite<A, R>, ...args: A): Promise<R> {
    this.calls.push([write.name, ...args]);
    return this.real.run(write, ...args);
  }
  cacheConfessions(rows: readonly LocalConfession[]): Promise<void> {
    return this.real.cacheConfessions(rows);
  }
  loadNotifications(): Promise<number> {
    this.calls.push(['loadNotifications']);
    return Promise.resolve(0);
  }
  loadFriends(): Promise<void> {
    this.calls.push(['loadFriends']);
    return Promise.resolve();
  }
  loadCallLogs(before?: string): Promise<{ nextBefore: string | null }> {
    this.calls.push(['loadCallLogs', before]);
    return this.callLogPages(before);
  }
  sendCallFrame(frame: CallClientFrame): boolean {
    if (this.state.status !== 'online') return false;
    this.callFrames.push(frame);
    return true;
  }
  onCallFrame(listener: (frame: CallServerFrame) => void): () => void {
    this.callListeners.add(listener);
    return () => void this.callListeners.delete(listener);
  }
  /** The server sends this device a call frame. */
  emitCallFrame(frame: CallServerFrame): void {
    this.callListeners.forEach((listener) => listener(frame));
  }
  sendRandomFrame(frame: RandomClientFrame): boolean {
    if (this.state.status !== 'online') return false;
    this.randomFrames.push(frame);
    return true;
  }
  onRandomFrame(listener: (frame: RandomServerFrame) => void): () => void {
    this.randomListeners.add(listener);
    return () => void this.randomListeners.delete(listener);
  }
  /** The server sends this device a random-talk frame. */
  emitRandomFrame(frame: RandomServerFrame): void {
    this.randomListeners.forEach((listener) => listener(frame));
  }
  /** The random frames of one type the screens sent. */
  randomSent<T extends RandomClientFrame['type']>(type: T): Extract<RandomClientFrame, { type: T }>[] {
    return this.randomFrames.filter((f): f is Extract<RandomClientFrame, { type: T }> => f.type === type);
  }
  typing(target: TypingTarget): void {
    this.calls.push(['typing', target]);
  }
  stopTyping(target: TypingTarget): void {
    this.calls.push(['stopTyping', target]);
  }
  joinChat(peerId: string): () => void {
    this.calls.push(['joinChat', peerId]);
    return () => void this.calls.push(['leaveChat', peerId]);
  }
  joinGroup(groupId: string): () => void {
    this.calls.push(['joinGroup', groupId]);
    return () => void this.calls.push(['leaveGroup', groupId]);
  }
  async markGroupSeen(groupId: string): Promise<void> {
    this.calls.push(['markGroupSeen', groupId]);
  }
  loadDirectPage(partnerId: string, page: number): Promise<number> {
    this.calls.push(['loadDirectPage', partnerId, page]);
    return this.directPages(partnerId, page);
  }
  loadGroupPage(groupId: string, page: number): Promise<number> {
    this.calls.push(['loadGroupPage', groupId, page]);
    return this.groupPages(groupId, page);
  }
}

/** A direct message between me and `peer`, `minutesAgo` before now. */
export function directMessage(
  id: string,
  from: UserRef,
  to: UserRef,
  content: string,
  timestamp: string,
  extra: Partial<LocalDirectMessage> = {},
): LocalDirectMessage {
  const message: DirectMessage = {
    id,
    from,
    to,
    content,
    timestamp,
    status: 'sent',
    attachmentUrl: null,
    attachmentType: null,
    replyTo: null,
    reactions: [],
  };
  return { ...message, peerId: from.id === ME.id ? to.id : from.id, ...extra };
}

export function groupMessage(
  id: string,
  from: UserRef,
  group: string,
  content: string,
  timestamp: string,
): GroupMessage {
  return { id, from, group, content, timestamp, attachmentUrl: null, attachmentType: null, status: 'sent' };
}

export function minutesAgo(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toISOString();
}

/** Noon yesterday, so the day is 'Yesterday' whatever the time now. */
export function yesterdayNoon(offsetMinutes = 0): string {
  const date = new Date();
  date.setDate(date.getDate() - 1);
  date.setHours(12, offsetMinutes, 0, 0);
  return date.toISOString();
}

export async function seedPartner(
  client: FakeSyncClient,
  user: UserRef = SAM,
  lastActiveAt: string | null = null,
) {
  await client.db.users.put({
    ...user,
    lastActiveAt,
  });
}

const signedIn: SessionContextValue = {
  status: 'signed-in',
  user: student,
  endedBy: null,
  signIn: () => undefined,
  updateUser: () => undefined,
  logout: async () => undefined,
  expire: async () => undefined,
  retry: () => undefined,
};

/** The chat routes alone, with the fake client in place of the signed-in shell's real one. */
export function renderChat(client: FakeSyncClient, path: string): void {
  const api = createApiClient({ baseUrl: '', getToken: () => 'token-test' });
  render(
    <MemoryRouter initialEntries={[path]}>
      <PlatformProvider platform={fakePlatform()}>
        <ApiProvider api={api}>
          <ThemeProvider>
            <SessionContext value={signedIn}>
              <SyncContext value={client}>
                <CallLayer>
                  <Routes>
                    <Route path="/chat/:userId" element={<ChatPage />} />
                    <Route path="/group/:groupId" element={<GroupChatPage />} />
                    <Route path="/talk" element={<p>Talk home</p>} />
                  </Routes>
                </CallLayer>
              </SyncContext>
            </SessionContext>
          </ThemeProvider>
        </ApiProvider>
      </PlatformProvider>
    </MemoryRouter>,
  );
}
