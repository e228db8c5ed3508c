import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AppNotification } from '@campus/protocol';
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
  feedPage,
  many,
  renderConfessions,
  resetConfessions,
} from './confessions-kit';

afterEach(resetConfessions);

const MISSING = 'That confession is no longer available.';
const allTab = () => screen.getByRole('tab', { name: /Top \(All\)/ });
const highlighted = (author: string) => card(author).getAttribute('data-highlighted') === 'true';

function reaction(id: string): AppNotification {
  return {
    id,
    type: 'confession_reaction',
    title: 'New reaction',
    body: 'Someone found your confession relatable',
    createdAt: new Date().toISOString(),
    isRead: false,
    data: { confessionId: 'target' },
  };
}

/** Opens the bell and clicks the notification at `index` (each one links the same confession). */
async function openNotification(index: number) {
  fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
  const panel = await screen.findByRole('dialog', { name: 'Notifications' }, SLOW);
  const items = await within(panel).findAllByRole('button', { name: /New reaction/ }, SLOW);
  fireEvent.click(items[index]!);
}

describe('links to a confession', () => {
  it('highlights the confession again each time a link to it is opened, in the All tab', async () => {
    const notifications = [reaction('n-1'), reaction('n-2')];
    const { calls } = mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      'GET /api/notifications/unread-count': () => ({ status: 200, body: { unreadCount: 2 } }),
      'GET /api/notifications': () => ({ status: 200, body: { notifications, unreadCount: 2 } }),
      'PUT /api/notifications/n-1/read': () => ({ status: 200, body: {} }),
      'PUT /api/notifications/n-2/read': () => ({ status: 200, body: {} }),
      [collegeFeed(1)]: () => feedPage([confession('c1', { nickname: 'Local' })], 2, 1),
      [allFeed(1)]: () =>
        feedPage(
          [confession('target', { nickname: 'Linked', college: 'IIT Delhi' }), confession('c1')],
          2,
          1,
        ),
    });
    const db = userDatabase(student.id);
    await db.notifications.bulkPut(notifications.map((n) => ({ ...n, unread: 1 as const })));
    renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);

    await openNotification(0);
    await waitFor(() => expect(highlighted('Linked')).toBe(true), SLOW);
    expect(allTab().getAttribute('aria-selected')).toBe('true');

    // The user looks at their college's tab, then opens a second notification for the same confession:
    // the URL does not change, yet the card is shown (All tab) and highlighted again.
    fireEvent.click(screen.getByRole('tab', { name: /Your College/ }));
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    await openNotification(1);
    await waitFor(() => expect(allTab().getAttribute('aria-selected')).toBe('true'), SLOW);
    await waitFor(() => expect(highlighted('Linked')).toBe(true), SLOW);
    expect(document.activeElement).toBe(card('Linked'));

    // Once its 3 s are over, opening the link again highlights it again, with the card's counts fresh.
    await waitFor(() => expect(highlighted('Linked')).toBe(false), { timeout: 4500 });
    const allFeedCalls = () => calls.filter((call) => `${call.method} ${call.path}` === allFeed(1)).length;
    const before = allFeedCalls();
    await openNotification(0);
    await waitFor(() => expect(highlighted('Linked')).toBe(true), SLOW);
    await waitFor(() => expect(allFeedCalls()).toBe(before + 1), SLOW);
  }, 12_000);

  it('pages past the fifth page to find an older confession', async () => {
    const pages = Array.from({ length: 6 }, (_, index) => many(`p${index + 1}-`, 10));
    const routes = Object.fromEntries(
      pages.map((page, index) => [allFeed(index + 1), () => feedPage(page, 62)]),
    );
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      ...routes,
      [allFeed(7)]: () => feedPage([confession('target', { nickname: 'Old one' }), confession('last')], 62),
    });
    renderConfessions('/confessions?confessionId=target');
    await waitFor(() => expect(cards()).toHaveLength(62), { timeout: 8000 });
    await waitFor(() => expect(highlighted('Old one')).toBe(true), SLOW);
    expect(screen.queryByText(MISSING)).toBeNull();
  }, 12_000);

  it('says so when the linked confession is not in the feed any more', async () => {
    const { calls } = mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [allFeed(1)]: () => feedPage(many('a', 10), 13),
      [allFeed(2)]: () => feedPage(many('b', 3), 13),
    });
    renderConfessions('/confessions?confessionId=deleted');
    expect(await screen.findByText(MISSING, {}, SLOW)).toBeTruthy();
    // The cards render from the device's cache: the last page's may show a moment after the search ends.
    await waitFor(() => expect(cards()).toHaveLength(13), SLOW);
    expect(calls.filter((call) => call.path.startsWith('/api/confessions/feed'))).toHaveLength(2);
  });
});
