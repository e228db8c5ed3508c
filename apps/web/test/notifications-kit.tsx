import 'fake-indexeddb/auto';
import { cleanup, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, vi } from 'vitest';
import { STORAGE_KEYS, type AppNotification, type Platform } from '@campus/protocol';
import {
  createSyncClient,
  deleteUserDatabase,
  openUserDatabase,
  type CampusDatabase,
  type SyncClient,
} from '@campus/sync';
import { NotificationsBell } from '../src/features/notifications/NotificationsBell';
import { SyncContext } from '../src/features/sync/sync-context';
import { createApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';
import { readSession } from '../src/lib/session-storage';
import { PlatformProvider } from '../src/platform';

/*
 * The bell and its panel on a real Dexie database (fake-indexeddb) with fetch replaced at the HTTP boundary.
 * The whole app is not rendered: the bell only needs the API, the platform, the router and the user's db.
 */

export const USER_ID = 'u-alex';
export const TOKEN = 'token-u-alex';

const opened: CampusDatabase[] = [];

/**
 * Each test gets a database of its own name: a write of the previous test still settling (its component
 * unmounted mid-transaction) can then never land in, or delete, the next test's cache.
 */
let databaseUser = `${USER_ID}-0`;
let databases = 0;
export function testDatabase(): CampusDatabase {
  const db = openUserDatabase(databaseUser);
  opened.push(db);
  return db;
}

afterEach(async () => {
  cleanup();
  opened.splice(0).forEach((db) => db.close());
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  await deleteUserDatabase(databaseUser);
  databases += 1;
  databaseUser = `${USER_ID}-${databases}`;
});

type Reply =
  { status: number; body?: unknown } | 'network-error' | Promise<{ status: number; body?: unknown }>;
type Handler = () => Reply;

export interface Call {
  method: string;
  path: string;
  authorization: string | null;
}

/** fetch answering 'METHOD /path' handlers; other routes get 404 as from the real server. */
export function mockServer(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = String(input);
      calls.push({ method, path, authorization: new Headers(init.headers).get('Authorization') });
      const handler = routes[`${method} ${path}`];
      const reply = handler ? await handler() : { status: 404, body: { error: 'Not found' } };
      if (reply === 'network-error') throw new TypeError('Failed to fetch');
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

export function notification(overrides: Partial<AppNotification> & { id: string }): AppNotification {
  return {
    type: 'confession_reaction',
    title: 'New reaction',
    body: 'Someone found your confession relatable',
    createdAt: new Date(Date.now() - 5.5 * 60_000).toISOString(),
    isRead: false,
    data: { confessionId: 'c-1' },
    ...overrides,
  };
}

export function list(notifications: AppNotification[], unreadCount?: number) {
  return {
    status: 200,
    body: { notifications, unreadCount: unreadCount ?? notifications.filter((n) => !n.isRead).length },
  };
}

/** Rows as the sync layer stores them (wire shape plus the indexable `unread`). */
export async function cacheRows(db: CampusDatabase, rows: AppNotification[]): Promise<void> {
  await db.notifications.bulkPut(rows.map((row) => ({ ...row, unread: row.isRead ? 0 : 1 })));
}

export function testPlatform(notify: Platform['notify'] = async () => undefined): Platform {
  return {
    serverUrl: '',
    appVersion: 'test',
    notify,
    onNavigate: () => () => undefined,
    openExternal: async () => undefined,
    pickFiles: async () => [],
    saveFile: async () => true,
    requestMediaPermission: async () => false,
  };
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/**
 * The real sync client on the user's database, never started: a read mark lands in the cache and its outbox
 * (what the server gets once online is the engine's own tests').
 */
function bellClient(db: CampusDatabase): SyncClient {
  const self = { id: USER_ID, firstName: 'Alex', lastName: 'Rivera', profilePictureUrl: null };
  return createSyncClient({
    self,
    token: TOKEN,
    baseUrl: '',
    wsUrl: 'ws://127.0.0.1:9/ws',
    db,
    network: null,
  });
}

export function renderBell(options: { db?: CampusDatabase; platform?: Platform } = {}) {
  localStorage.setItem(STORAGE_KEYS.session, JSON.stringify({ token: TOKEN, userId: USER_ID }));
  const db = options.db ?? testDatabase();
  if (!opened.includes(db)) opened.push(db);
  const api = createApiClient({ baseUrl: '', getToken: () => readSession()?.token ?? null });
  render(
    <MemoryRouter initialEntries={['/talk']}>
      <PlatformProvider platform={options.platform ?? testPlatform()}>
        <ApiProvider api={api}>
          <SyncContext value={bellClient(db)}>
            <NotificationsBell />
            <button type="button">Outside</button>
            <LocationProbe />
          </SyncContext>
        </ApiProvider>
      </PlatformProvider>
    </MemoryRouter>,
  );
  return db;
}
