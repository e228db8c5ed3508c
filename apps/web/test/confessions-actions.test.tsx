import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONFESSION_MSG, CONFESSION_SERVER_MSG, censorConfirm } from '@campus/protocol';
import { mockServer, storeSessionFor, student } from './helpers';
import {
  NICKNAME_SET,
  SLOW,
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

const NO_NICKNAME = {
  'GET /api/confessions/nickname': () => ({ status: 404, body: { error: 'No nickname set.' } }),
};

describe('nickname', () => {
  it('asks for a nickname, checks it after a 450 ms pause, and sets it', async () => {
    const { calls } = mockServer({
      ...storeSessionFor(student),
      ...NO_NICKNAME,
      [collegeFeed(1)]: () => feedPage([confession('c1')]),
      'GET /api/confessions/nickname/check/Taken': () => ({ status: 200, body: { available: false } }),
      'GET /api/confessions/nickname/check/Moonlight': () => ({ status: 200, body: { available: true } }),
      'POST /api/confessions/nickname/set': () => ({ status: 200, body: { nickname: 'Moonlight' } }),
    });
    const server = renderConfessions();
    expect(await screen.findByText(CONFESSION_MSG.nicknameBanner, {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);

    // Reacting without a nickname opens the chooser instead.
    fireEvent.click(within(card('Anon')).getByRole('button', { name: /^Like/ }));
    const dialog = screen.getByRole('dialog', { name: 'Choose a nickname' });
    const field = within(dialog).getByLabelText('Nickname');
    const set = () => within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Set' });
    const checks = () => calls.filter((call) => call.path.startsWith('/api/confessions/nickname/check/'));
    expect(server.received('confession_react')).toHaveLength(0);

    fireEvent.change(field, { target: { value: 'T' } });
    expect(within(dialog).getByRole('status').textContent).toBe('');
    // A name mixing alphabets (Cyrillic 'і') is refused on the spot, as the server would, and never checked.
    fireEvent.change(field, { target: { value: 'n\u0456ght_owl' } });
    expect(within(dialog).getByRole('status').textContent).toBe(CONFESSION_SERVER_MSG.nicknameMixedScript);
    expect(set().disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'Tak' } });
    fireEvent.change(field, { target: { value: 'Taken' } });
    expect(within(dialog).getByRole('status').textContent).toBe(CONFESSION_MSG.nicknameChecking);
    const typedAt = Date.now();
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toBe('taken'), SLOW);
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(400);
    // One check for the pause, not one per keystroke.
    expect(checks().map((call) => call.path)).toEqual(['/api/confessions/nickname/check/Taken']);
    expect(set().disabled).toBe(true);

    fireEvent.change(field, { target: { value: 'Moonlight' } });
    expect(within(dialog).getByRole('status').textContent).toBe('checking…');
    expect(set().disabled).toBe(true);
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toBe('available'), SLOW);
    fireEvent.click(set());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    expect(calls.find((call) => call.path === '/api/confessions/nickname/set')?.body).toEqual({
      nickname: 'Moonlight',
    });
    expect(screen.queryByText(CONFESSION_MSG.nicknameBanner)).toBeNull();
    // The Like that opened the chooser is not lost: it goes to the server once the nickname is set.
    await waitFor(() => expect(server.received('confession_react')).toHaveLength(1), SLOW);
    expect(server.received('confession_react')[0]).toMatchObject({
      confessionId: 'c1',
      reactionType: 'relatable',
      on: true,
    });
    const like = within(card('Anon')).getByRole('button', { name: /^Like/ });
    expect(like.getAttribute('aria-pressed')).toBe('true');
  });

  it('keeps a typed comment while the nickname is chosen', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NO_NICKNAME,
      [collegeFeed(1)]: () => feedPage([confession('c1', { nickname: 'Poet' })]),
      'GET /api/confessions/c1/comments': () => ({ status: 200, body: { comments: [], total: 0 } }),
      'GET /api/confessions/nickname/check/Moon': () => ({ status: 200, body: { available: true } }),
      'POST /api/confessions/nickname/set': () => ({ status: 200, body: { nickname: 'Moon' } }),
    });
    renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    fireEvent.click(within(card('Poet')).getByRole('button', { name: /^Comment/ }));
    const panel = screen.getByRole('dialog', { name: 'Comments' });
    fireEvent.change(within(panel).getByLabelText('Add a comment'), { target: { value: 'Same here' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Comment' }));

    const chooser = await screen.findByRole('dialog', { name: 'Choose a nickname' }, SLOW);
    fireEvent.change(within(chooser).getByLabelText('Nickname'), { target: { value: 'Moon' } });
    await waitFor(() => expect(within(chooser).getByRole('status').textContent).toBe('available'), SLOW);
    fireEvent.click(within(chooser).getByRole('button', { name: 'Set' }));
    const reopened = await screen.findByRole('dialog', { name: 'Comments' }, SLOW);
    expect(within(reopened).getByLabelText<HTMLTextAreaElement>('Add a comment').value).toBe('Same here');
  });

  it('opens the composer once a nickname is chosen from Post Confession', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NO_NICKNAME,
      [collegeFeed(1)]: () => feedPage([]),
      'GET /api/confessions/nickname/check/Moon': () => ({ status: 200, body: { available: true } }),
      'POST /api/confessions/nickname/set': () => ({ status: 200, body: { nickname: 'Moon' } }),
    });
    renderConfessions();
    await screen.findByText(CONFESSION_MSG.nicknameBanner, {}, SLOW);
    fireEvent.click(screen.getByRole('button', { name: CONFESSION_MSG.postButton }));
    const dialog = screen.getByRole('dialog', { name: 'Choose a nickname' });
    fireEvent.change(within(dialog).getByLabelText('Nickname'), { target: { value: 'Moon' } });
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toBe('available'), SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Set' }));
    const composer = await screen.findByRole('dialog', { name: 'Post a confession' }, SLOW);
    expect(within(composer).getByText('Moon')).toBeTruthy();
  });

  it("shows the server's refusal or 'Failed to set nickname'", async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NO_NICKNAME,
      [collegeFeed(1)]: () => feedPage([]),
      'GET /api/confessions/nickname/check/Moon': () => ({ status: 200, body: { available: true } }),
      'POST /api/confessions/nickname/set': () => ({ status: 500 }),
    });
    renderConfessions();
    fireEvent.click(await screen.findByRole('button', { name: 'Choose nickname' }, SLOW));
    const dialog = screen.getByRole('dialog', { name: 'Choose a nickname' });
    fireEvent.change(within(dialog).getByLabelText('Nickname'), { target: { value: 'Moon' } });
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toBe('available'), SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Set' }));
    expect((await within(dialog).findByRole('alert', {}, SLOW)).textContent).toBe(
      CONFESSION_MSG.nicknameFailed,
    );
  });
});

describe('posting', () => {
  it('previews moderation, confirms the censored text and posts it', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([]),
      'POST /moderation/moderate': () => ({
        status: 200,
        body: {
          original_text: 'what the fuck',
          censored_text: 'what the ****',
          has_blocked_words: true,
          blocked_words: ['fuck'],
        },
      }),
    });
    const server = renderConfessions();
    fireEvent.click(await screen.findByRole('button', { name: CONFESSION_MSG.postButton }, SLOW));
    const composer = screen.getByRole('dialog', { name: 'Post a confession' });
    expect(within(composer).getByRole<HTMLInputElement>('radio', { name: /Sarcastic/ }).checked).toBe(true);
    fireEvent.click(within(composer).getByRole('radio', { name: /Angry/ }));
    fireEvent.change(within(composer).getByLabelText('Your confession'), {
      target: { value: 'what the fuck' },
    });
    expect(within(composer).getByText('13/1000')).toBeTruthy();
    // The preview card shows the censored text once the 400 ms pause has passed.
    const preview = within(composer).getByRole('region', { name: 'Preview' });
    await waitFor(() => expect(within(preview).getByText('what the ****')).toBeTruthy(), SLOW);
    expect(within(preview).getByText(/Angry/)).toBeTruthy();

    fireEvent.click(within(composer).getByRole('button', { name: 'Post' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Censored words' });
    expect(confirm.textContent).toContain(censorConfirm('what the ****'));
    expect(server.received('confession_post')).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    // Through the outbox: the censored text goes to the server, and the card is on top of the feed at once.
    await waitFor(() => expect(server.received('confession_post')).toHaveLength(1), SLOW);
    expect(server.received('confession_post')[0]).toMatchObject({
      content: 'what the ****',
      emotionTag: '😠',
    });
    const posted = await within(feed()).findByRole('article', { name: 'NightOwl' }, SLOW);
    expect(within(posted).getByText('what the ****')).toBeTruthy();
    expect(within(posted).getByText(/Angry/)).toBeTruthy();
  });

  it('treats a failed preview as clean and shows a post error with its status', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([]),
      'POST /moderation/moderate': () => 'network-error',
    });
    const server = renderConfessions();
    fireEvent.click(await screen.findByRole('button', { name: CONFESSION_MSG.postButton }, SLOW));
    fireEvent.change(screen.getByLabelText('Your confession'), { target: { value: 'hello there' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await within(feed()).findByText('hello there', {}, SLOW);
    // The server refuses the queued post (a rate limit): the card goes, the reason shows with its status.
    await act(() => server.refuse('confession_post', 'Too many posts.', 'rateLimited'));
    const error = await screen.findByRole('alert', {}, SLOW);
    expect(error.textContent).toBe('Too many posts. (429)');
    expect(server.received('confession_post')[0]).toMatchObject({ content: 'hello there' });
    await waitFor(() => expect(within(feed()).queryByText('hello there')).toBeNull(), SLOW);
  });
});
