import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONFESSION_MSG, CONFESSIONS, censorConfirm } from '@campus/protocol';
import { fakePlatform, mockServer, storeSessionFor, student } from './helpers';
import { resetDatabase } from './sync-provider-fake';
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
} from './confessions-kit';

const html = vi.hoisted(() => ({ toBlob: vi.fn(async () => new Blob(['png'], { type: 'image/png' })) }));
vi.mock('html-to-image', () => html);

afterEach(() => resetDatabase(student.id));

const likeButton = (author: string) => within(card(author)).getByRole('button', { name: /^Like/ });

describe('confession cards', () => {
  it('likes on a double tap (within 300 ms), optimistically, and keeps the server counts', async () => {
    let liked = false;
    const { calls } = mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () =>
        feedPage([
          confession('c1', {
            nickname: 'Poet',
            reactions: { relatable: 4, funny: 1, feelYou: 0, shareWorthy: 0 },
          }),
        ]),
      'POST /api/confessions/c1/react': () => {
        liked = !liked;
        const reactions = { relatable: liked ? 5 : 4, funny: 1, feelYou: 0, shareWorthy: 0 };
        return { status: 200, body: { reactions, myReactions: liked ? ['relatable'] : [] } };
      },
    });
    renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('false');
    const text = within(card('Poet')).getByText('Confession c1');

    fireEvent.click(text);
    expect(calls.filter((call) => call.path.endsWith('/react'))).toHaveLength(0);
    fireEvent.click(text);
    // Optimistic: pressed and counted at once.
    expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('true');
    expect(likeButton('Poet').textContent).toContain('5');
    await waitFor(() => expect(calls.filter((call) => call.path.endsWith('/react'))).toHaveLength(1), SLOW);
    expect(calls.find((call) => call.path.endsWith('/react'))?.body).toEqual({ reactionType: 'relatable' });
    // Another double tap never unlikes.
    fireEvent.click(text);
    fireEvent.click(text);
    expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('true');
    expect(calls.filter((call) => call.path.endsWith('/react'))).toHaveLength(1);

    // Two taps further apart than 300 ms are not a double tap.
    const other = within(card('Poet')).getByRole('button', { name: /^Funny/ });
    expect(other.textContent).toContain('1');
    const now = vi.spyOn(Date, 'now');
    try {
      fireEvent.click(likeButton('Poet'));
      await waitFor(() => expect(calls.filter((call) => call.path.endsWith('/react'))).toHaveLength(2), SLOW);
      expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('false');
      const slowText = within(card('Poet')).getByText('Confession c1');
      now.mockReturnValue(1_000_000);
      fireEvent.click(slowText);
      now.mockReturnValue(1_000_000 + CONFESSIONS.doubleTapMs + 100);
      fireEvent.click(slowText);
    } finally {
      now.mockRestore();
    }
    expect(likeButton('Poet').getAttribute('aria-pressed')).toBe('false');
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
      'POST /api/confessions/c1/react': () => ({ status: 500 }),
    });
    renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    fireEvent.click(within(card('Poet')).getByRole('button', { name: /^Feel you/ }));
    expect(
      within(card('Poet'))
        .getByRole('button', { name: /^Feel you/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
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
    const { calls } = mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () =>
        feedPage([
          confession('mine', { nickname: 'NightOwl', isMine: true }),
          confession('theirs', { nickname: 'Other' }),
        ]),
      'DELETE /api/confessions/mine': () => ({ status: 200, body: { ok: true } }),
    });
    renderConfessions();
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
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(within(card('NightOwl')).getByRole('button', { name: 'More options' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    // The counts follow: header and both tabs (it was from the user's college).
    expect(screen.getByText('1 confession')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Your College (1)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Top (All) (1)' })).toBeTruthy();
    const deleted = calls.find((call) => call.method === 'DELETE');
    expect(deleted?.path).toBe('/api/confessions/mine');
    expect(deleted?.authorization).toBe(`Bearer token-${student.id}`);
  });

  it("shows 'Failed to delete confession' with the status when the server refuses", async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([confession('mine', { nickname: 'NightOwl', isMine: true })]),
      'DELETE /api/confessions/mine': () => ({
        status: 403,
        body: { error: 'Only the author can delete this confession.' },
      }),
    });
    renderConfessions();
    fireEvent.click(
      await within(await screen.findByRole('feed', {}, SLOW)).findByRole(
        'button',
        { name: 'More options' },
        SLOW,
      ),
    );
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toBe('Failed to delete confession (403)');
    expect(cards()).toHaveLength(1);
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
    let comments = [
      {
        id: 'k1',
        confessionId: 'c1',
        nickname: 'Reader',
        content: 'So true',
        createdAt: new Date().toISOString(),
        isMine: false,
      },
    ];
    const { calls } = mockServer({
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
      'POST /api/confessions/c1/comment': (body) => {
        const content = (body as { content: string }).content;
        comments = [...comments, { ...comments[0]!, id: 'k2', nickname: 'NightOwl', content, isMine: true }];
        return { status: 201, body: comments[1] };
      },
    });
    renderConfessions();
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
    expect(calls.find((call) => call.path === '/api/confessions/c1/comment')?.body).toMatchObject({
      content: '**** right',
    });
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(within(card('Poet')).getByRole('button', { name: /^Comment/ }).textContent).toContain('2');
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
