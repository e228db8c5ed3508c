import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { REALTIME_ERRORS, STORAGE_KEYS } from '@campus/protocol';
import type { SyncClientOptions } from '@campus/sync';
import { SessionContext, type SessionContextValue } from '../src/features/session/session-context';
import { SessionRefusal } from '../src/features/sync/SessionRefusal';
import { websocketUrl } from '../src/features/sync/sync-factory';
import { mockServer, storeSessionFor, student } from './helpers';
import { fakeSyncClient, type FakeSyncClient, renderWithSync } from './sync-provider-fake';

const events = vi.hoisted(() => [] as string[]);
vi.mock('@campus/sync', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  deleteUserDatabase: vi.fn(async (userId: string) => {
    events.push(`delete ${userId}`);
  }),
}));

beforeEach(() => {
  events.length = 0;
});

function recordingFactory() {
  const clients: FakeSyncClient[] = [];
  const factory = (options: SyncClientOptions) => {
    const client = fakeSyncClient(options);
    client.start.mockImplementation(() => void events.push('start'));
    client.stop.mockImplementation(async () => void events.push('stop'));
    clients.push(client);
    return client;
  };
  return { factory, clients };
}

describe('SyncProvider', () => {
  it('starts one client for the signed-in user with the stored token and the same-origin socket', async () => {
    const sync = recordingFactory();
    mockServer(storeSessionFor(student, 'tok-42'));
    renderWithSync('/talk', sync.factory);
    await screen.findByRole('heading', { name: 'Talk', level: 1 });
    // StrictMode is not on here: exactly one running client.
    expect(sync.clients).toHaveLength(1);
    expect(sync.clients[0]!.options).toMatchObject({
      self: { id: 'u-alex', firstName: 'Alex', lastName: 'Rivera', profilePictureUrl: null },
      token: 'tok-42',
      baseUrl: '',
      wsUrl: 'ws://localhost:3000/ws',
    });
    expect(events).toEqual(['start']);
  });

  it('stops the client before logout deletes the local database', async () => {
    const sync = recordingFactory();
    mockServer({ ...storeSessionFor(student), 'POST /api/auth/logout': () => ({ status: 204 }) });
    renderWithSync('/talk', sync.factory);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Logout' }))[0]!);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(events).toEqual(['start', 'stop', 'delete u-alex']);
  });
});

describe('a session the realtime server refuses for good', () => {
  it('4401 ends the session as expired: client stopped, local data deleted, back to login', async () => {
    const sync = recordingFactory();
    mockServer(storeSessionFor(student));
    renderWithSync('/chat/u-sam', sync.factory);
    await screen.findAllByRole('button', { name: 'Logout' });
    sync.clients[0]!.setState({ status: 'offline', refusedCode: 4401 });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(events).toEqual(['start', 'stop', 'delete u-alex']);
    expect(localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
  });

  it('4426 says the app is out of date with a Reload button instead of "Not connected" forever', async () => {
    const sync = recordingFactory();
    mockServer(storeSessionFor(student));
    renderWithSync('/talk', sync.factory);
    await screen.findByRole('heading', { name: 'Talk', level: 1 });
    sync.clients[0]!.setState({ status: 'offline', refusedCode: 4426 });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(REALTIME_ERRORS.protocolVersion);
    expect(within(alert).getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/talk');
    expect(events).toEqual(['start']);
  });

  it('the Reload button reloads the page', () => {
    const client = fakeSyncClient({
      self: { id: 'u-alex', firstName: 'Alex', lastName: 'Rivera', profilePictureUrl: null },
      token: 't',
      baseUrl: '',
      wsUrl: 'ws://x/ws',
    });
    client.setState({ refusedCode: 4426 });
    const reload = vi.fn();
    const session = { expire: vi.fn(async () => undefined) } as unknown as SessionContextValue;
    render(
      <SessionContext value={session}>
        <SessionRefusal client={client} reload={reload} />
      </SessionContext>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(session.expire).not.toHaveBeenCalled();
  });
});

describe('the WebSocket address', () => {
  it('is the page origin in the browser, the configured server on the desktop', () => {
    expect(websocketUrl('', { protocol: 'https:', host: 'campus.example' })).toBe('wss://campus.example/ws');
    expect(websocketUrl('', { protocol: 'http:', host: 'localhost:8787' })).toBe('ws://localhost:8787/ws');
    expect(websocketUrl('http://192.168.1.5:8787')).toBe('ws://192.168.1.5:8787/ws');
    expect(websocketUrl('https://talk.uni.edu/campus/')).toBe('wss://talk.uni.edu/campus/ws');
  });
});
