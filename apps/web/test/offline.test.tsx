import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { CHAT_MSG, STORAGE_KEYS } from '@campus/protocol';
import { readSession } from '../src/lib/session-storage';
import { mockServer, renderApp, storeSessionFor, student } from './helpers';
import { fakeSyncFactory, renderWithSync, resetDatabase, userDatabase } from './sync-provider-fake';

afterEach(() => resetDatabase(student.id));

/** What a previous online start left behind: the token and the profile. */
function storeSessionWithProfile(user = student) {
  localStorage.setItem(
    STORAGE_KEYS.session,
    JSON.stringify({ token: `token-${user.id}`, userId: user.id, user }),
  );
}

describe('the connection banner', () => {
  it('appears after a short grace while not connected, and goes once connected', async () => {
    const sync = fakeSyncFactory({ status: 'connecting' });
    mockServer(storeSessionFor(student));
    renderWithSync('/talk', sync.factory);
    await screen.findByRole('heading', { name: 'Talk', level: 1 });
    expect(screen.queryByText(CHAT_MSG.notConnectedBanner)).toBeNull();
    act(() => sync.latest()!.setState({ status: 'offline' }));
    const banner = await screen.findByText(CHAT_MSG.notConnectedBanner, {}, { timeout: 3000 });
    expect(banner.closest('[role="status"]')).toBeTruthy();
    act(() => sync.latest()!.setState({ status: 'online' }));
    expect(screen.queryByText(CHAT_MSG.notConnectedBanner)).toBeNull();
  });

  it('never shows while the connection is up', async () => {
    mockServer(storeSessionFor(student));
    renderWithSync('/talk', fakeSyncFactory({ status: 'online' }).factory);
    await screen.findByRole('heading', { name: 'Talk', level: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1700));
    expect(screen.queryByText(CHAT_MSG.notConnectedBanner)).toBeNull();
  });
});

describe('starting without the server', () => {
  it('opens Talk home from the cached profile and conversations, and checks again when back online', async () => {
    await userDatabase(student.id).conversations.put({
      id: 'u-sam',
      name: 'Sam Lee',
      avatarUrl: null,
      lastMessageSnippet: 'see you at the library',
      lastMessageTimestamp: '2026-11-22T09:00:00.000Z',
      unreadCount: 2,
      isGroup: false,
      email: null,
      lastActiveAt: null,
    });
    let reachable = false;
    const renamed = { ...student, firstName: 'Alexandra' };
    mockServer({ 'GET /api/auth/me': () => (reachable ? { status: 200, body: renamed } : 'network-error') });
    storeSessionWithProfile();
    renderWithSync('/talk', fakeSyncFactory({ status: 'offline' }).factory);

    expect(await screen.findByText('Hi Alex')).toBeTruthy();
    expect(await screen.findByRole('button', { name: /^Sam Lee, 2 unread/ }, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText('Can’t reach Campus Talk')).toBeNull();

    reachable = true;
    act(() => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByText('Hi Alexandra')).toBeTruthy();
    expect(readSession()?.user?.firstName).toBe('Alexandra');
  });

  it('signs out when the re-check finds the token refused', async () => {
    let answer: 'network-error' | { status: number; body: unknown } = 'network-error';
    mockServer({ 'GET /api/auth/me': () => answer });
    storeSessionWithProfile();
    renderWithSync('/talk', fakeSyncFactory({ status: 'offline' }).factory);
    expect(await screen.findByText('Hi Alex')).toBeTruthy();
    answer = { status: 401, body: { error: 'Not authenticated' } };
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
  });

  it('still shows the unreachable screen when no profile was cached', async () => {
    mockServer({ 'GET /api/auth/me': () => 'network-error' });
    storeSessionFor(student);
    renderApp('/talk');
    expect(await screen.findByRole('heading', { name: 'Can’t reach Campus Talk' })).toBeTruthy();
  });

  it('caches the profile on an online start, and ignores a cached profile of another account', async () => {
    mockServer(storeSessionFor(student));
    renderWithSync('/talk', fakeSyncFactory().factory);
    await screen.findByText('Hi Alex');
    expect(readSession()?.user).toEqual(student);

    localStorage.setItem(
      STORAGE_KEYS.session,
      JSON.stringify({ token: 't', userId: 'u-other', user: student }),
    );
    expect(readSession()).toEqual({ token: 't', userId: 'u-other' });
  });
});
