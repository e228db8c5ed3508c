import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CONFESSION_MSG } from '@campus/protocol';
import { MessageBubble, type BubbleMessage } from '../src/features/chat/MessageBubble';
import { mockServer, storeSessionFor, student } from './helpers';
import { postedChange } from './confessions-outbox-kit';
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
  renderConfessions,
  resetConfessions,
} from './confessions-kit';

afterEach(resetConfessions);

const header = () => screen.getByText(/^\d+ confessions?$/).textContent;
const tab = (name: RegExp) => screen.getByRole('tab', { name }).textContent;
const likes = (author: string) => within(card(author)).getByRole('button', { name: /^Like/ }).textContent;

describe('the feed is live', () => {
  it('shows posts, counts and deletions of other students as they happen, without a reload', async () => {
    let feedLoads = 0;
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => {
        feedLoads += 1;
        return feedPage([confession('c1', { nickname: 'Poet' })], 5, 1);
      },
      [allFeed(1)]: () => feedPage([confession('c1', { nickname: 'Poet' })], 5, 1),
    });
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    await waitFor(() => expect(server.tokens).toHaveLength(1), SLOW);
    expect(header()).toBe('5 confessions');

    // Someone of the same college posts: the card comes on top, both counts move.
    act(() => server.push(postedChange(confession('live', { nickname: 'Newcomer', content: 'Fresh news' }))));
    await waitFor(() => expect(cards()).toHaveLength(2), SLOW);
    expect(within(cards()[0]!).getByText('Fresh news')).toBeTruthy();
    expect(header()).toBe('6 confessions');
    expect(tab(/Your College/)).toBe('Your College (2)');
    expect(tab(/Top \(All\)/)).toBe('Top (All) (6)');
    // Someone elsewhere posts: not on the college tab, but the total counts it.
    act(() => server.push(postedChange(confession('far', { nickname: 'Far', college: 'IIT Delhi' }))));
    await waitFor(() => expect(header()).toBe('7 confessions'), SLOW);
    expect(cards()).toHaveLength(2);
    expect(tab(/Your College/)).toBe('Your College (2)');

    // Likes elsewhere reach the card.
    act(() =>
      server.push({
        type: 'confession_counts',
        confessionId: 'live',
        reactions: { relatable: 3, funny: 0, feelYou: 0, shareWorthy: 0 },
        commentCount: 2,
      }),
    );
    await waitFor(() => expect(likes('Newcomer')).toContain('3'), SLOW);
    expect(within(card('Newcomer')).getByRole('button', { name: /^Comment/ }).textContent).toContain('2');

    // Its author deletes it: it leaves the feed and the counts.
    act(() => server.push({ type: 'confession_deleted', confessionId: 'live' }));
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    expect(within(feed()).queryByText('Fresh news')).toBeNull();
    expect(header()).toBe('6 confessions');
    expect(tab(/Your College/)).toBe('Your College (1)');
    // All of it without loading the feed again.
    expect(feedLoads).toBe(1);

    fireEvent.click(screen.getByRole('tab', { name: /Top \(All\)/ }));
    await waitFor(() => expect(within(feed()).getByText('Confession far')).toBeTruthy(), SLOW);
  });

  it("shows the user's own post as pending (a clock, 'Posting…') until the server has it", async () => {
    mockServer({ ...storeSessionFor(student), ...NICKNAME_SET, [collegeFeed(1)]: () => feedPage([], 0, 0) });
    const server = renderConfessions();
    expect(await screen.findByText(CONFESSION_MSG.emptyTitle, {}, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: CONFESSION_MSG.postButton }));
    fireEvent.change(screen.getByLabelText('Your confession'), { target: { value: 'my secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));

    const mine = await within(feed()).findByRole('article', { name: 'NightOwl' }, SLOW);
    expect(within(mine).getByText('my secret')).toBeTruthy();
    expect(within(mine).getByRole('img', { name: 'Posting…' })).toBeTruthy();
    expect(screen.queryByText(CONFESSION_MSG.emptyTitle)).toBeNull();
    // Its own: the Delete menu is there already.
    expect(within(mine).getByRole('button', { name: 'More options' })).toBeTruthy();

    await act(() => server.ack('confession_post'));
    await waitFor(
      () => expect(within(card('NightOwl')).queryByRole('img', { name: 'Posting…' })).toBeNull(),
      SLOW,
    );
    expect(within(card('NightOwl')).getByText('my secret')).toBeTruthy();
  });
});

describe('pending chat messages', () => {
  const message = (status: BubbleMessage['status']): BubbleMessage => ({
    id: `m-${status}`,
    content: `a ${status} message`,
    timestamp: new Date().toISOString(),
    status,
    attachmentUrl: null,
    attachmentType: null,
  });
  const noop = () => undefined;

  it('shows a clock while sending, the tick once sent, and Retry and Discard when failed', () => {
    const { rerender } = render(
      <MessageBubble message={message('sending')} own ticks="full" onRetry={noop} onDiscard={noop} />,
    );
    const sending = screen.getByRole('img', { name: 'Sending' });
    expect(sending.querySelector('[data-icon="clock"]')).toBeTruthy();
    expect(sending.querySelector('[data-icon="tick"]')).toBeNull();

    rerender(<MessageBubble message={message('sent')} own ticks="full" onRetry={noop} onDiscard={noop} />);
    expect(screen.queryByRole('img', { name: 'Sending' })).toBeNull();
    expect(screen.getByRole('img', { name: 'Sent' }).querySelector('[data-icon="tick"]')).toBeTruthy();

    // A group shows only the pending state: the clock too.
    rerender(
      <MessageBubble message={message('sending')} own ticks="sending-only" onRetry={noop} onDiscard={noop} />,
    );
    expect(screen.getByRole('img', { name: 'Sending' }).querySelector('[data-icon="clock"]')).toBeTruthy();

    rerender(
      <MessageBubble message={message('failed')} own ticks="sending-only" onRetry={noop} onDiscard={noop} />,
    );
    expect(screen.queryByRole('img', { name: 'Sending' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Discard' })).toBeTruthy();
  });
});
