import 'fake-indexeddb/auto';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { vi, type Mock } from 'vitest';
import type { MessageErrorFrame } from '@campus/protocol';
import {
  createSyncClient,
  deleteUserDatabase,
  openUserDatabase,
  type CampusDatabase,
  type EphemeralState,
} from '@campus/sync';
import type { SyncClient, SyncClientOptions } from '@campus/sync';
import { AppProviders } from '../src/app/AppProviders';
import { AppRoutes } from '../src/app/AppRoutes';
import { SyncFactoryContext } from '../src/features/sync/sync-factory';
import { fakePlatform } from './helpers';

export type FakeSyncClient = SyncClient & {
  options: SyncClientOptions;
  setState(next: Partial<EphemeralState>): void;
  /** Delivers a refusal to the screens listening for message_error. */
  emitError(frame: MessageErrorFrame): void;
  start: Mock<() => void>;
  stop: Mock<() => Promise<void>>;
};

/**
 * A sync client on a real Dexie database (fake-indexeddb) whose connection state the test sets: the screens
 * are tested against the SyncClient contract, the engine itself has its own tests in packages/sync.
 */
export function fakeSyncClient(options: SyncClientOptions, initial: Partial<EphemeralState> = {}) {
  let state: EphemeralState = {
    status: 'online',
    online: new Set(),
    onlineCount: null,
    typing: new Map(),
    lastActive: new Map(),
    ...initial,
  };
  const listeners = new Set<() => void>();
  const errorListeners = new Set<(frame: MessageErrorFrame) => void>();
  const db: CampusDatabase = options.db ?? openUserDatabase(options.self.id);
  // The features' writes and loads run for real on this database; the client never connects.
  const real = createSyncClient({ ...options, db, network: null });
  const client: FakeSyncClient = {
    options,
    db,
    userId: options.self.id,
    start: vi.fn<() => void>(),
    stop: vi.fn(async (): Promise<void> => undefined),
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setState(next) {
      state = { ...state, ...next };
      listeners.forEach((listener) => listener());
    },
    onMessageError(listener) {
      errorListeners.add(listener);
      return () => errorListeners.delete(listener);
    },
    emitError: (frame) => errorListeners.forEach((listener) => listener(frame)),
    run: (write, ...args) => real.run(write, ...args),
    cacheConfessions: vi.fn(real.cacheConfessions.bind(real)),
    loadNotifications: vi.fn(async () => 0),
    loadFriends: vi.fn(async () => undefined),
    loadCallLogs: vi.fn(async () => ({ nextBefore: null })),
    sendCallFrame: vi.fn(() => state.status === 'online'),
    onCallFrame: vi.fn(() => () => undefined),
    sendRandomFrame: vi.fn(() => state.status === 'online'),
    onRandomFrame: vi.fn(() => () => undefined),
    typing: vi.fn(),
    stopTyping: vi.fn(),
    joinChat: vi.fn(() => () => undefined),
    joinGroup: vi.fn(() => () => undefined),
    markGroupSeen: vi.fn(async () => undefined),
    loadDirectPage: vi.fn(async () => 0),
    loadGroupPage: vi.fn(async () => 0),
  };
  return client;
}

/** Every client the app made in this test, newest last. */
export function fakeSyncFactory(initial: Partial<EphemeralState> = {}) {
  const clients: FakeSyncClient[] = [];
  const factory = (options: SyncClientOptions) => {
    const client = fakeSyncClient(options, initial);
    clients.push(client);
    return client;
  };
  return { factory, clients, latest: () => clients[clients.length - 1] };
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/** The whole app at `path`, with the given sync client factory. */
export function renderWithSync(path: string, factory: (options: SyncClientOptions) => SyncClient): void {
  render(
    <MemoryRouter initialEntries={[path]}>
      <SyncFactoryContext value={factory}>
        <AppProviders platform={fakePlatform()}>
          <AppRoutes />
          <LocationProbe />
        </AppProviders>
      </SyncFactoryContext>
    </MemoryRouter>,
  );
}

/** A user's cache as a test prepares it; deleted again by resetDatabase. */
export function userDatabase(userId: string): CampusDatabase {
  return openUserDatabase(userId);
}

export async function resetDatabase(userId: string): Promise<void> {
  await deleteUserDatabase(userId);
}
