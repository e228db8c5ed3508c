import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONFESSION_MSG } from '@campus/protocol';
import { mockServer, storeSessionFor, student } from './helpers';
import { userDatabase } from './sync-provider-fake';
import {
  NICKNAME_SET,
  SLOW,
  allFeed,
  card,
  cards,
  collegeFeed,
  confession,
  feed,
  feedPage,
  many,
  renderConfessions,
  resetConfessions,
} from './confessions-kit';

afterEach(resetConfessions);

/**
 * jsdom has no IntersectionObserver: this one lets the test say when the end of the list is near. As in a
 * browser, an observer that was disconnected is told nothing: calling it anyway reached the hook's callback
 * before React's effects had moved it on to the current state (they run after the render the test waits
 * for, later than it under load), which asked for a page the feed had already.
 */
function stubIntersectionObserver() {
  const observers: {
    callback: IntersectionObserverCallback;
    options?: IntersectionObserverInit;
    connected: boolean;
  }[] = [];
  class Observer {
    private readonly entry: (typeof observers)[number];
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.entry = { callback, options, connected: false };
      observers.push(this.entry);
    }
    observe() {
      this.entry.connected = true;
    }
    disconnect() {
      this.entry.connected = false;
    }
  }
  vi.stubGlobal('IntersectionObserver', Observer);
  const connected = () => observers.filter((observer) => observer.connected);
  const nearEnd = () => {
    for (const observer of connected())
      observer.callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
  };
  return { observers, connected, nearEnd };
}

describe('Confessions feed', () => {
  it('shows the cards of the college tab with counts, mood, nickname, time, and the end marker', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () =>
        feedPage(
          [
            confession('c1', { nickname: 'NightOwl', emotionTag: '😢', content: 'Short one' }),
            confession('c2', { content: 'x'.repeat(600) }),
          ],
          57,
          2,
        ),
      [allFeed(1)]: () => feedPage([confession('c3', { college: 'IIT Delhi', nickname: 'Wanderer' })], 57, 2),
    });
    renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(2), SLOW);
    expect(screen.getByRole('heading', { name: 'Confessions', level: 1 })).toBeTruthy();
    expect(screen.getByText('57 confessions')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Your College (2)' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Top (All) (57)' }).getAttribute('aria-selected')).toBe('false');

    const first = card('NightOwl');
    expect(within(first).getByText('Sad')).toBeTruthy();
    expect(within(first).getByText('5m ago')).toBeTruthy();
    // No college badge on the college tab.
    expect(within(first).queryByText('IIT Bombay')).toBeNull();
    // Font auto-size: a short text is big, a long one small, within 18–46 px.
    expect(within(first).getByText('Short one').style.fontSize).toBe('46px');
    expect(within(card('Anon')).getByText('x'.repeat(600)).style.fontSize).toBe('18px');
    expect(screen.getByText(CONFESSION_MSG.end)).toBeTruthy();
    expect(screen.queryByText(CONFESSION_MSG.nicknameBanner)).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Top (All) (57)' }));
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    expect(within(card('Wanderer')).getByText('IIT Delhi')).toBeTruthy();
  });

  it('shows the empty state, and the feed error with its status in red', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([], 4, 0),
      [allFeed(1)]: () => ({ status: 500, body: { error: 'boom' } }),
    });
    renderConfessions();
    expect(await screen.findByText(CONFESSION_MSG.emptyTitle, {}, SLOW)).toBeTruthy();
    expect(screen.getByText(CONFESSION_MSG.emptyBody)).toBeTruthy();
    expect(screen.queryByText(CONFESSION_MSG.end)).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Top (All) (4)' }));
    const error = await screen.findByRole('alert', {}, SLOW);
    expect(error.textContent).toBe('Feed error 500');
  });

  it('hides Your College for a user without a college and loads more while pages are full', async () => {
    const observer = stubIntersectionObserver();
    const noCollege = { ...student, college: null };
    const { calls } = mockServer({
      ...storeSessionFor(noCollege),
      ...NICKNAME_SET,
      [allFeed(1)]: () => feedPage(many('a', 10), 13, 0),
      [allFeed(2)]: () => feedPage(many('b', 3), 13, 0),
    });
    renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(10), SLOW);
    expect(screen.queryByRole('tab', { name: /Your College/ })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Top (All) (13)' })).toBeTruthy();
    expect(screen.queryByText(CONFESSION_MSG.end)).toBeNull();
    // The sentinel is observed in an effect after the cards render (later than them under load).
    await waitFor(() => expect(observer.connected().at(-1)?.options?.rootMargin).toBe('800px 0px'), SLOW);

    act(() => observer.nearEnd());
    await waitFor(() => expect(cards()).toHaveLength(13), SLOW);
    expect(screen.getByText(CONFESSION_MSG.end)).toBeTruthy();
    // A page of 3 is the last: nothing watches the end of the list any more (the observer went when page 2
    // started loading), and no third request comes however close the end comes.
    expect(observer.connected()).toEqual([]);
    act(() => observer.nearEnd());
    expect(calls.filter((call) => call.path.startsWith('/api/confessions/feed'))).toHaveLength(2);
    // Both pages are cached for offline reading, in feed order.
    const db = userDatabase(student.id);
    await waitFor(async () => expect(await db.confessions.count()).toBe(13), SLOW);
    const order = await db.confessions.orderBy('feedOrder').toArray();
    expect(order.map((row) => row.id)).toEqual([...many('a', 10), ...many('b', 3)].map((row) => row.id));
  });

  it('keeps paging after a network failure: no end marker while offline, more once back online', async () => {
    const observer = stubIntersectionObserver();
    let network: 'down' | 'up' = 'down';
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage(many('a', 10), 13),
      [collegeFeed(2)]: () => (network === 'down' ? 'network-error' : feedPage(many('b', 3), 13)),
    });
    renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(10), SLOW);
    await waitFor(() => expect(observer.connected().length).toBeGreaterThan(0), SLOW);

    const listening = vi.spyOn(window, 'addEventListener');
    act(() => observer.nearEnd());
    expect(await screen.findByText(/You are offline\. More confessions will load/, {}, SLOW)).toBeTruthy();
    // More pages exist: not the end of the feed.
    expect(screen.queryByText(CONFESSION_MSG.end)).toBeNull();
    expect(cards()).toHaveLength(10);
    // The feed listens for 'online' in an effect after that render, which under load ran after the event
    // below was sent (and it was missed): going online tells a feed that listens.
    await waitFor(() => expect(listening.mock.calls.map(([type]) => type)).toContain('online'), SLOW);
    listening.mockRestore();

    network = 'up';
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(cards()).toHaveLength(13), SLOW);
    expect(screen.getByText(CONFESSION_MSG.end)).toBeTruthy();
    expect(screen.queryByText(/You are offline/)).toBeNull();
  });

  it('offers Retry under the offline cached feed, with no end marker', async () => {
    let network: 'down' | 'up' = 'down';
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => (network === 'down' ? 'network-error' : feedPage([confession('fresh')])),
    });
    // Cache writes of earlier tests may still land: this test only counts on its own row.
    const saved = { ...confession('saved', { nickname: 'Saved' }), feedOrder: -1 };
    await userDatabase(student.id).confessions.put(saved);
    renderConfessions();
    expect(await screen.findByText('You are offline: showing saved confessions.', {}, SLOW)).toBeTruthy();
    expect(await within(feed()).findByRole('article', { name: 'Saved' }, SLOW)).toBeTruthy();
    expect(screen.queryByText(CONFESSION_MSG.end)).toBeNull();

    network = 'up';
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByText(/You are offline/)).toBeNull(), SLOW);
    expect(cards()).toHaveLength(1);
    expect(within(feed()).getByText('Confession fresh')).toBeTruthy();
    expect(screen.getByText(CONFESSION_MSG.end)).toBeTruthy();
  });

  it('stores loaded pages and shows the cached cards when the feed is opened offline', async () => {
    // Writes of an earlier test may still be settling: start from an empty cache.
    await userDatabase(student.id).confessions.clear();
    const server = mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([], 2, 0),
      [allFeed(1)]: () =>
        feedPage([confession('o1', { nickname: 'First' }), confession('o2', { nickname: 'Second' })]),
    });
    renderConfessions('/confessions?confessionId=none');
    await waitFor(() => expect(cards()).toHaveLength(2), SLOW);
    const db = userDatabase(student.id);
    await waitFor(async () => expect(await db.confessions.count()).toBe(2), SLOW);

    server.fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      if (String(input) === '/api/auth/me') return new Response(JSON.stringify(student), { status: 200 });
      throw new TypeError('Failed to fetch');
    });
    fireEvent.click(screen.getByRole('tab', { name: /Your College/ }));
    // The college tab offline: only that college's cached rows (both are IIT Bombay).
    await waitFor(() => expect(cards()).toHaveLength(2), SLOW);
    expect(screen.getByText('You are offline: showing saved confessions.')).toBeTruthy();
    expect(cards().map((item) => within(item).getByText(/^(First|Second)$/).textContent)).toEqual([
      'First',
      'Second',
    ]);
  });
});
