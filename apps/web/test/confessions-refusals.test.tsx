import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONFESSION_MSG, STORAGE_KEYS, type ConfessionComment } from '@campus/protocol';
import { mockServer, storeSessionFor, student } from './helpers';
import {
  NICKNAME_SET,
  SLOW,
  card,
  cards,
  collegeFeed,
  confession,
  feedPage,
  renderConfessions,
  resetConfessions,
} from './confessions-kit';

afterEach(resetConfessions);

const earlier: ConfessionComment = {
  id: 'k1',
  confessionId: 'c1',
  nickname: 'Reader',
  content: 'So true',
  createdAt: new Date().toISOString(),
  isMine: false,
};

/** The feed of one card with one comment; counts how often the feed is loaded. */
function serverWithOneCard() {
  const feedLoads = { count: 0 };
  const server = mockServer({
    ...storeSessionFor(student),
    ...NICKNAME_SET,
    [collegeFeed(1)]: () => {
      feedLoads.count += 1;
      return feedPage([confession('c1', { nickname: 'Poet', commentCount: 1 })]);
    },
    'GET /api/confessions/c1/comments': () => ({ status: 200, body: { comments: [earlier], total: 1 } }),
  });
  return { ...server, feedLoads };
}

/** Posts through the composer: queued in the outbox (the scripted server answers only when told). */
function queuePost(text: string) {
  fireEvent.click(screen.getByRole('button', { name: CONFESSION_MSG.postButton }));
  fireEvent.change(screen.getByLabelText('Your confession'), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Post' }));
}

const commentCount = () => within(card('Poet')).getByRole('button', { name: /^Comment/ }).textContent;

async function commentThroughOutbox(text: string) {
  fireEvent.click(within(card('Poet')).getByRole('button', { name: /^Comment/ }));
  const panel = screen.getByRole('dialog', { name: 'Comments' });
  await within(panel).findByText('So true', {}, SLOW);
  const box = within(panel).getByLabelText<HTMLTextAreaElement>('Add a comment');
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: 'Enter' });
  const list = within(panel).getByRole('list', { name: 'Comments' });
  await within(list).findByText(text, {}, SLOW);
  return { panel, box, list };
}

describe('refused outbox writes', () => {
  it('a refused comment leaves the list and the count, its text returns and the reason shows', async () => {
    serverWithOneCard();
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);

    const { panel, box, list } = await commentThroughOutbox('first try');
    expect(box.value).toBe('');
    await waitFor(() => expect(commentCount()).toContain('2'), SLOW);

    await act(() => server.refuse('confession_comment', 'Set a nickname first.'));
    expect((await within(panel).findByRole('alert', {}, SLOW)).textContent).toBe('Set a nickname first.');
    expect(within(list).queryByText('first try')).toBeNull();
    expect(box.value).toBe('first try');
    await waitFor(() => expect(commentCount()).toContain('1'), SLOW);
  });

  it("says 'Failed to add comment' on the feed and reloads it when the panel was closed", async () => {
    const { feedLoads } = serverWithOneCard();
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    await commentThroughOutbox('later refused');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(commentCount()).toContain('2'), SLOW);

    // The server sent no reason: the spec's text.
    await act(() => server.refuse('confession_comment', ''));
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe(CONFESSION_MSG.commentFailed);
    await waitFor(() => expect(feedLoads.count).toBe(2), SLOW);
    await waitFor(() => expect(commentCount()).toContain('1'), SLOW);
  });

  it('a refused post shows the reason, leaves the feed and reloads it', async () => {
    const { feedLoads } = serverWithOneCard();
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    queuePost('queued post');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    // Queued through the outbox, shown on top at once, and still pending.
    await waitFor(() => expect(cards()).toHaveLength(2), SLOW);
    expect(within(cards()[0]!).getByText('queued post')).toBeTruthy();
    expect(within(cards()[0]!).getByRole('img', { name: 'Posting…' })).toBeTruthy();
    await waitFor(() => expect(server.received('confession_post')).toHaveLength(1), SLOW);
    expect(feedLoads.count).toBe(1);

    await act(() => server.refuse('confession_post', 'Confession cannot be empty.'));
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe(
      'Confession cannot be empty. (400)',
    );
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    await waitFor(() => expect(feedLoads.count).toBe(2), SLOW);
  });
});

describe('refused while the feed is closed', () => {
  it('a post refused after the student left the feed shows its line when the feed opens again', async () => {
    const { feedLoads } = serverWithOneCard();
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    queuePost('queued post');
    await waitFor(() => expect(server.received('confession_post')).toHaveLength(1), SLOW);

    fireEvent.click(screen.getByRole('link', { name: 'Talk' }));
    await waitFor(() => expect(screen.queryByRole('feed')).toBeNull(), SLOW);
    await act(() => server.refuse('confession_post', 'Confession cannot be empty.'));
    // Handled while the feed is closed: the queued post is gone from this device's outbox.
    const db = server.clients.at(-1)!.db;
    await waitFor(async () => expect(await db.outbox.count()).toBe(0), SLOW);

    fireEvent.click(screen.getByRole('link', { name: 'Confession' }));
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe(
      'Confession cannot be empty. (400)',
    );
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    expect(feedLoads.count).toBeGreaterThanOrEqual(2);
  });
});

describe('no session token', () => {
  it("says 'No auth token' and sends nothing when the token is gone", async () => {
    const { calls } = mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () =>
        feedPage([confession('mine', { nickname: 'NightOwl', isMine: true, commentCount: 0 })]),
    });
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    // Signed out in another tab, say: the stored session (and its token) is gone.
    localStorage.removeItem(STORAGE_KEYS.session);
    const before = calls.length;

    const like = within(card('NightOwl')).getByRole('button', { name: /^Like/ });
    fireEvent.click(like);
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe(CONFESSION_MSG.noAuthToken);
    expect(like.getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(within(card('NightOwl')).getByRole('button', { name: 'More options' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), SLOW);
    expect(screen.getByRole('alert').textContent).toBe(CONFESSION_MSG.noAuthToken);

    fireEvent.click(screen.getByRole('tab', { name: /Top \(All\)/ }));
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2), SLOW);
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      CONFESSION_MSG.noAuthToken,
      CONFESSION_MSG.noAuthToken,
    ]);
    expect(calls.slice(before).filter((call) => call.path.startsWith('/api/confessions'))).toEqual([]);
    expect(server.received('confession_react')).toEqual([]);
    expect(server.received('confession_delete')).toEqual([]);
    expect(cards()).toHaveLength(1);
  });
});
