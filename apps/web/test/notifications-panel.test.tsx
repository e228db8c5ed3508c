import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONFESSION_MSG } from '@campus/protocol';
import { cacheRows, list, mockServer, notification, renderBell, testDatabase } from './notifications-kit';

const bell = () => screen.getByRole('button', { name: 'Notifications' });
const panel = () => screen.getByRole('dialog', { name: 'Notifications' });
const location = () => screen.getByTestId('location').textContent;

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('the notifications bell badge', () => {
  it.each([
    [7, '7'],
    [99, '99'],
    [100, '99+'],
    [5000, '99+'],
  ])('shows an unread count of %i as %s', async (count, shown) => {
    mockServer({
      'GET /api/notifications/unread-count': () => ({ status: 200, body: { unreadCount: count } }),
    });
    renderBell();
    await waitFor(() => expect(bell().textContent).toBe(`${shown} unread`));
  });

  it('counts the cached notifications, rises when a live one is stored, falls on a read elsewhere', async () => {
    mockServer({ 'GET /api/notifications/unread-count': () => ({ status: 200, body: { unreadCount: 2 } }) });
    const db = testDatabase();
    await cacheRows(db, [
      notification({ id: 'n-1' }),
      notification({ id: 'n-2' }),
      notification({ id: 'n-0', isRead: true }),
    ]);
    renderBell({ db });
    await waitFor(() => expect(bell().textContent).toBe('2 unread'));
    await cacheRows(db, [notification({ id: 'n-3', type: 'confession_comment' })]);
    await waitFor(() => expect(bell().textContent).toBe('3 unread'));
    // Read on another device: the sync layer marks the cached rows read.
    await cacheRows(db, [
      notification({ id: 'n-1', isRead: true }),
      notification({ id: 'n-2', isRead: true }),
    ]);
    await waitFor(() => expect(bell().textContent).toBe('1 unread'));
  });

  it('loads the list once on start when the server has unread ones the cache lacks', async () => {
    const calls = mockServer({
      'GET /api/notifications/unread-count': () => ({ status: 200, body: { unreadCount: 3 } }),
      'GET /api/notifications': () =>
        list([notification({ id: 'n-1' }), notification({ id: 'n-2' }), notification({ id: 'n-3' })]),
    });
    const db = renderBell();
    await waitFor(async () => expect(await db.notifications.count()).toBe(3));
    expect(calls.filter((call) => call.path === '/api/notifications')).toHaveLength(1);
    await cacheRows(db, [notification({ id: 'n-4', createdAt: new Date().toISOString() })]);
    await waitFor(() => expect(bell().textContent).toBe('4 unread'));
  });
});

describe('the notifications panel', () => {
  it('forgets cached notifications the server no longer lists (their confession was deleted)', async () => {
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const db = testDatabase();
    await cacheRows(db, [
      notification({ id: 'gone', title: 'Deleted meanwhile', createdAt: at(30) }),
      notification({ id: 'kept', title: 'Still there', createdAt: at(20) }),
      notification({ id: 'newer', title: 'Arrived after the fetch', createdAt: at(-1) }),
    ]);
    mockServer({
      'GET /api/notifications': () =>
        list([notification({ id: 'kept', title: 'Still there', createdAt: at(20) })]),
    });
    renderBell({ db });
    fireEvent.click(bell());
    await waitFor(async () => expect(await db.notifications.get('gone')).toBeUndefined());
    expect((await db.notifications.toArray()).map((n) => n.id).sort()).toEqual(['kept', 'newer']);
    await waitFor(() => expect(screen.queryByText('Deleted meanwhile')).toBeNull());
    expect(screen.getByText('Still there')).toBeTruthy();
  });

  it('shows three skeletons while loading, then the list with icon, title, body, time and unread dot', async () => {
    const answer = deferred<ReturnType<typeof list>>();
    mockServer({ 'GET /api/notifications': () => answer.promise });
    renderBell();
    fireEvent.click(bell());
    expect(bell().getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByTestId('notification-skeleton')).toHaveLength(3);
    expect(document.activeElement).toBe(
      screen.getByRole('searchbox', { name: CONFESSION_MSG.notificationsSearch }),
    );

    answer.resolve(
      list([
        notification({ id: 'n-1', title: 'New reaction', body: 'Someone laughed' }),
        notification({
          id: 'n-2',
          type: 'friend_request',
          title: 'Friend request',
          body: 'Sam',
          isRead: true,
        }),
      ]),
    );
    const reaction = await screen.findByRole('button', { name: /New reaction/ });
    expect(screen.queryAllByTestId('notification-skeleton')).toHaveLength(0);
    expect(reaction.textContent).toContain('Someone laughed');
    expect(reaction.textContent).toContain('5m');
    expect(reaction.textContent).toContain('Unread');
    expect(reaction.dataset.type).toBe('confession_reaction');
    expect(reaction.querySelector('.notification__icon svg')).not.toBeNull();
    const request = screen.getByRole('button', { name: /Friend request/ });
    expect(request.textContent).not.toContain('Unread');
  });

  it.each([
    ['an error status', () => ({ status: 500, body: { error: 'boom' } })],
    ['an invalid body', () => ({ status: 200, body: { items: [] } })],
  ])('says Failed to load notifications on %s', async (_, reply) => {
    mockServer({ 'GET /api/notifications': reply });
    renderBell();
    fireEvent.click(bell());
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load notifications');
    expect(screen.queryByText(CONFESSION_MSG.notificationsEmptyTitle)).toBeNull();
  });

  it('says you are all caught up when there are none', async () => {
    mockServer({ 'GET /api/notifications': () => list([]) });
    renderBell();
    fireEvent.click(bell());
    expect(await screen.findByText('You’re all caught up')).toBeTruthy();
    expect(screen.getByText('No notifications.')).toBeTruthy();
  });

  it('filters by title or body, ignoring case, and says when nothing matches', async () => {
    mockServer({
      'GET /api/notifications': () =>
        list([
          notification({ id: 'n-1', title: 'New reaction', body: 'Someone found it FUNNY' }),
          notification({ id: 'n-2', type: 'confession_comment', title: 'New comment', body: 'same here' }),
          notification({ id: 'n-3', type: 'friend_request', title: 'Friend request', body: 'Sam Lee' }),
        ]),
    });
    renderBell();
    fireEvent.click(bell());
    await screen.findByRole('button', { name: /New reaction/ });
    const search = screen.getByPlaceholderText('Search notifications...');
    fireEvent.change(search, { target: { value: 'funny' } });
    expect(within(panel()).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('button', { name: /New reaction/ })).toBeTruthy();
    fireEvent.change(search, { target: { value: 'FRIEND' } });
    expect(within(panel()).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('button', { name: /Friend request/ })).toBeTruthy();
    fireEvent.change(search, { target: { value: 'zebra' } });
    expect(within(panel()).queryAllByRole('listitem')).toHaveLength(0);
    expect(within(panel()).getByRole('status').textContent).toBe('No matching notifications.');
    // Not the 'no notifications at all' state: there are some, just none matching.
    expect(within(panel()).queryByText(CONFESSION_MSG.notificationsEmptyTitle)).toBeNull();
    fireEvent.change(search, { target: { value: '' } });
    expect(within(panel()).getAllByRole('listitem')).toHaveLength(3);
    expect(within(panel()).queryByText('No matching notifications.')).toBeNull();
  });

  it('closes on Escape (focus back on the bell), on a click outside and with Close', async () => {
    mockServer({ 'GET /api/notifications': () => list([]) });
    renderBell();
    fireEvent.click(bell());
    await screen.findByText('You’re all caught up');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(bell());
    expect(bell().getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(bell());
    fireEvent.mouseDown(within(panel()).getByRole('searchbox'));
    expect(screen.queryByRole('dialog')).not.toBeNull();
    fireEvent.mouseDown(screen.getByRole('button', { name: 'Outside' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).not.toBe(bell());

    fireEvent.click(bell());
    fireEvent.click(within(panel()).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the panel offline', () => {
  it('shows the cached notifications when the server cannot be reached', async () => {
    mockServer({ 'GET /api/notifications': () => 'network-error' });
    const db = renderBell();
    await cacheRows(db, [notification({ id: 'n-1', title: 'Cached reaction' })]);
    await waitFor(() => expect(bell().textContent).toBe('1 unread'));
    fireEvent.click(bell());
    expect(await screen.findByRole('button', { name: /Cached reaction/ })).toBeTruthy();
    const list = panel().querySelector('.notifications-panel__list');
    await waitFor(() => expect(list?.getAttribute('aria-busy')).toBe('false'));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('clicking a notification', () => {
  it('marks it read here and queues it for the server, lowers the count, closes the panel and opens the confession', async () => {
    mockServer({
      'GET /api/notifications/unread-count': () => ({ status: 200, body: { unreadCount: 2 } }),
      'GET /api/notifications': () =>
        list([
          notification({ id: 'n-1', data: { confessionId: 'c-42' } }),
          notification({ id: 'n-2', type: 'confession_comment', title: 'New comment' }),
        ]),
    });
    const db = renderBell();
    await waitFor(() => expect(bell().textContent).toBe('2 unread'));
    fireEvent.click(bell());
    fireEvent.click(await screen.findByRole('button', { name: /New reaction/ }));

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(location()).toBe('/confessions?confessionId=c-42');
    await waitFor(() => expect(bell().textContent).toBe('1 unread'));
    // The server hears of it through the outbox: delivered exactly once when online (offline too).
    await waitFor(async () =>
      expect((await db.outbox.toArray()).map((row) => row.frame)).toMatchObject([
        { type: 'mark_notification_read', notificationId: 'n-1' },
      ]),
    );
    await waitFor(async () => expect((await db.notifications.get('n-1'))?.isRead).toBe(true));
    expect((await db.notifications.get('n-2'))?.isRead).toBe(false);

    // Offline later: the cached list still shows it as read.
    fireEvent.click(bell());
    const again = await screen.findByRole('button', { name: /New reaction/ });
    expect(again.textContent).not.toContain('Unread');
  });

  it('never lowers the count below 0, and a mark that cannot be stored is only logged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockServer({
      'GET /api/notifications/unread-count': () => ({ status: 200, body: { unreadCount: 0 } }),
      'GET /api/notifications': () =>
        list([notification({ id: 'n-1' }), notification({ id: 'n-2', title: 'Old one', isRead: true })], 0),
    });
    const db = renderBell();
    // Storage refuses the queued mark (a full disk): the write fails and is only logged.
    db.outbox.hook('creating', () => {
      throw new Error('QuotaExceededError');
    });
    fireEvent.click(bell());
    fireEvent.click(await screen.findByRole('button', { name: /New reaction/ }));
    await waitFor(() => expect(bell().textContent).toBe(''));
    fireEvent.click(bell());
    fireEvent.click(await screen.findByRole('button', { name: /Old one/ }));
    // The failed mark of n-1 is logged; n-2 was read already, so there is nothing to tell the server.
    await waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    expect(await db.outbox.count()).toBe(0);
    expect(bell().textContent).toBe('');
    expect(location()).toBe('/confessions?confessionId=c-1');
  });

  it('opens the friend requests modal over the current screen for a friend request', async () => {
    mockServer({
      'GET /api/notifications': () =>
        list([notification({ id: 'n-9', type: 'friend_request', title: 'Friend request', data: {} })]),
    });
    const db = renderBell();
    await db.friendRequests.put({
      _id: 'r-1',
      id: 'r-1',
      status: 'pending',
      from: { id: 'u-sam', firstName: 'Sam', lastName: 'Lee', profilePictureUrl: null },
      createdAt: '2026-11-20T10:00:00.000Z',
    });
    fireEvent.click(bell());
    // The list settles first (the refresh answered and its rows came back from the cache), so the click
    // lands on the row the panel shows rather than on one the refresh is replacing.
    const item = await waitFor(() => {
      expect(screen.getByRole('dialog').querySelector('[aria-busy="true"]')).toBeNull();
      return screen.getByRole('button', { name: /Friend request/ });
    });
    fireEvent.click(item);
    const modal = await screen.findByRole('dialog', { name: 'Friend requests' });
    expect(await within(modal).findByText('Sam Lee')).toBeTruthy();
    expect(location()).toBe('/talk');
    fireEvent.click(within(modal).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(bell());
  });
});
