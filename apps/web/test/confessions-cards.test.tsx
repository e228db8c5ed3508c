import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONFESSION_MSG, CONFESSIONS, censorConfirm } from '@campus/protocol';
import { fakePlatform, mockServer, storeSessionFor, student } from './helpers';
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

const html = vi.hoisted(() => ({ toBlob: vi.fn(async () => new Blob(['png'], { type: 'image/png' })) }));
vi.mock('html-to-image', () => html);

afterEach(resetConfessions);

const likeButton = (author: string) => within(card(author)).getByRole('button', { name: /^Like/ });

describe('confession cards', () => {
  it('likes on a double tap (within 300 ms), optimistically, and keeps the server counts', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () =>
        feedPage([
          confession('c1', {
            nickname: 'Poet',
            reactions: { relatable: 4, funny: 1, feelYou: 0, shareWorthy: 0 },
          }),
        ]),
    });
    const server = renderConfessions();
    const reacts = () => server.received('confession_react');
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('false');
    const text = within(card('Poet')).getByText('Confession c1');

    fireEvent.click(text);
    fireEvent.click(text);
    // Optimistic: pressed and counted at once.
    await waitFor(() => expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('true'), SLOW);
    expect(likeButton('Poet').textContent).toContain('5');
    await waitFor(() => expect(reacts()).toHaveLength(1), SLOW);
    expect(reacts()[0]).toMatchObject({ confessionId: 'c1', reactionType: 'relatable', on: true });
    await act(() => server.ack('confession_react'));
    // The server's counts (coalesced, live) replace the card's: another student's like is in them.
    act(() =>
      server.push({
        type: 'confession_counts',
        confessionId: 'c1',
        reactions: { relatable: 6, funny: 1, feelYou: 0, shareWorthy: 0 },
        commentCount: 0,
      }),
    );
    await waitFor(() => expect(likeButton('Poet').textContent).toContain('6'), SLOW);
    expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('true');
    // Another double tap never unlikes.
    fireEvent.click(text);
    fireEvent.click(text);
    expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('true');
    expect(reacts()).toHaveLength(1);

    // Two taps further apart than 300 ms are not a double tap.
    const other = within(card('Poet')).getByRole('button', { name: /^Funny/ });
    expect(other.textContent).toContain('1');
    fireEvent.click(likeButton('Poet'));
    await waitFor(() => expect(reacts()).toHaveLength(2), SLOW);
    expect(reacts()[1]).toMatchObject({ reactionType: 'relatable', on: false });
    await waitFor(() => expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('false'), SLOW);
    const now = vi.spyOn(Date, 'now');
    try {
      const slowText = within(card('Poet')).getByText('Confession c1');
      now.mockReturnValue(1_000_000);
      fireEvent.click(slowText);
      now.mockReturnValue(1_000_000 + CONFESSIONS.doubleTapMs + 100);
      fireEvent.click(slowText);
    } finally {
      now.mockRestore();
    }
    expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('false');
    expect(reacts()).toHaveLength(2);
  });

  it("reloads the feed and says 'Failed to update reaction' when a reaction fails", async () => {
    let feedCalls = 0;
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => {
        feedCalls += 1;
        return feedPage([confession('c1', { nickname: 'Poet' })]);
      },
    });
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    fireEvent.click(within(card('Poet')).getByRole('button', { name: /^Feel you/ }));
    await waitFor(
      () =>
        expect(
          within(card('Poet'))
            .getByRole('button', { name: /^Feel you/ })
            .getAttribute('aria-pressed'),
        ).toBe('true'),
      SLOW,
    );
    await act(() => server.refuse('confession_react', 'Something went wrong. Please try again.', 'internal'));
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toContain(CONFESSION_MSG.reactionFailed);
    await waitFor(() => expect(feedCalls).toBe(2), SLOW);
    await waitFor(
      () =>
        expect(
          within(card('Poet'))
            .getByRole('button', { name: /^Feel you/ })
            .getAttribute('aria-pressed'),
        ).toBe('false'),
      SLOW,
    );
  });

  it('offers Delete only on own confessions, after the confirmation', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () =>
        feedPage([
          confession('mine', { nickname: 'NightOwl', isMine: true }),
          confession('theirs', { nickname: 'Other' }),
        ]),
    });
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(2), SLOW);
    expect(within(card('Other')).queryByRole('button', { name: 'More options' })).toBeNull();
    fireEvent.click(within(card('NightOwl')).getByRole('button', { name: 'More options' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete confession' });
    expect(confirm.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(confirm).getByText(CONFESSION_MSG.deleteConfirm)).toBeTruthy();
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));

    // Cancel keeps it; confirming deletes it.
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.received('confession_delete')).toHaveLength(0);
    fireEvent.click(within(card('NightOwl')).getByRole('button', { name: 'More options' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    // The counts follow: header and both tabs (it was from the user's college).
    expect(screen.getByText('1 confession')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Your College (1)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Top (All) (1)' })).toBeTruthy();
    // Through the outbox, on the session the user signed in with.
    await waitFor(() => expect(server.received('confession_delete')).toHaveLength(1), SLOW);
    expect(server.received('confession_delete')[0]).toMatchObject({ confessionId: 'mine' });
    expect(server.tokens.at(-1)).toBe(`token-${student.id}`);
  });

  it("shows 'Failed to delete confession' with the status when the server refuses", async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([confession('mine', { nickname: 'NightOwl', isMine: true })]),
    });
    const server = renderConfessions();
    fireEvent.click(
      await within(await screen.findByRole('feed', {}, SLOW)).findByRole(
        'button',
        { name: 'More options' },
        SLOW,
      ),
    );
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cards()).toHaveLength(0), SLOW);
    await act(() =>
      server.refuse('confession_delete', 'Only the author can delete this confession.', 'forbidden'),
    );
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toBe('Failed to delete confession (403)');
    // The card comes back: the server still has it.
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
  });

  it('?confessionId loads pages until the confession is found and highlights it for 3 s', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [allFeed(1)]: () => feedPage(many('p', 10), 12),
      [allFeed(2)]: () => feedPage([confession('target', { nickname: 'Linked' }), confession('p12')], 12),
    });
    renderConfessions('/confessions?confessionId=target');
    // A link opens the All tab: the confession may be from any college.
    await waitFor(() => expect(cards()).toHaveLength(12), SLOW);
    expect(screen.getByRole('tab', { name: /Top \(All\)/ }).getAttribute('aria-selected')).toBe('true');
    const linked = card('Linked');
    await waitFor(() => expect(linked.className).toContain('cf-card--highlight'), SLOW);
    expect(document.activeElement).toBe(linked);
    await waitFor(() => expect(linked.className).not.toContain('cf-card--highlight'), { timeout: 4500 });
  }, 10_000);
});

describe('comments and sharing', () => {
  it('lists comments; Enter posts (after the censor confirmation), Shift+Enter does not', async () => {
    const comments = [
      {
        id: 'k1',
        confessionId: 'c1',
        nickname: 'Reader',
        content: 'So true',
        createdAt: new Date().toISOString(),
        isMine: false,
      },
    ];
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([confession('c1', { nickname: 'Poet', commentCount: 1 })]),
      'GET /api/confessions/c1/comments': () => ({ status: 200, body: { comments, total: comments.length } }),
      'POST /moderation/moderate': () => ({
        status: 200,
        body: {
          original_text: 'damn right',
          censored_text: '**** right',
          has_blocked_words: true,
          blocked_words: ['damn'],
        },
      }),
    });
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    fireEvent.click(within(card('Poet')).getByRole('button', { name: /^Comment/ }));
    const panel = screen.getByRole('dialog', { name: 'Comments' });
    expect(await within(panel).findByText('So true', {}, SLOW)).toBeTruthy();
    const box = within(panel).getByLabelText('Add a comment');
    fireEvent.change(box, { target: { value: 'damn right' } });
    expect(within(panel).getByText('10/500')).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.keyDown(box, { key: 'Enter' });
    const confirm = await screen.findByRole('alertdialog', {}, SLOW);
    expect(confirm.textContent).toContain(censorConfirm('**** right'));
    fireEvent.click(within(confirm).getByRole('button', { name: 'Continue' }));
    expect(await within(panel).findByText('**** right', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(server.received('confession_comment')).toHaveLength(1), SLOW);
    expect(server.received('confession_comment')[0]).toMatchObject({
      confessionId: 'c1',
      content: '**** right',
    });
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(
      () => expect(within(card('Poet')).getByRole('button', { name: /^Comment/ }).textContent).toContain('2'),
      SLOW,
    );
  });

  it('shares a card as a PNG at pixel ratio 2 under the fixed file name, through the Platform', async () => {
    const platform = fakePlatform();
    const saveFile = vi.fn(async (_name: string, _data: Blob) => true);
    platform.saveFile = saveFile;
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([confession('c1', { nickname: 'Poet' })]),
    });
    renderConfessions('/confessions', platform);
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    fireEvent.click(within(card('Poet')).getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1), SLOW);
    const [node, options] = html.toBlob.mock.calls[0] as unknown as [HTMLElement, { pixelRatio: number }];
    expect(node).toBe(card('Poet'));
    expect(options.pixelRatio).toBe(2);
    expect(within(node).getByText(CONFESSIONS.shareWatermark)).toBeTruthy();
    expect(saveFile.mock.calls[0]?.[0]).toBe(CONFESSIONS.shareImageFileName);
  });
});
