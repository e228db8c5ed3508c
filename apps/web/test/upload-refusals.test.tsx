import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ACCESS_MSG } from '@campus/protocol';
import { directMessage, FakeSyncClient, ME, minutesAgo, renderChat, SAM, seedPartner } from './chat-kit';
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
import { mockServer, storeSessionFor, student } from './helpers';
import { fakeSyncFactory, renderWithSync } from './sync-provider-fake';

/**
 * The access policy's refusals reach a client that still thinks it may take part (its cached profile is
 * older than an admin's decision, say): their text shows where refusals show, with the way to the upload page.
 */
afterEach(resetConfessions);

const linkIn = (element: HTMLElement) => within(element).getByRole('link');

describe('refusals by the access policy', () => {
  it('a refused reaction (realtime, code verificationRequired) shows its text and the link', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([confession('c1', { nickname: 'Poet' })]),
    });
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    fireEvent.click(within(card('Poet')).getByRole('button', { name: /^Like/ }));
    await waitFor(() => expect(server.received('confession_react')).toHaveLength(1), SLOW);
    await act(() =>
      server.refuse('confession_react', ACCESS_MSG.pendingVerification, 'verificationRequired'),
    );
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toContain(ACCESS_MSG.pendingVerification);
    expect(linkIn(alert).textContent).toBe('See your verification status');
    expect(linkIn(alert).getAttribute('href')).toBe('/upload-document');
  });

  it('other refusals keep their words and get no link', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([confession('c1', { nickname: 'Poet' })]),
    });
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    fireEvent.click(within(card('Poet')).getByRole('button', { name: /^Like/ }));
    await waitFor(() => expect(server.received('confession_react')).toHaveLength(1), SLOW);
    await act(() => server.refuse('confession_react', 'Too many reactions.', 'rateLimited'));
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toBe('Failed to update reaction');
    expect(within(alert).queryByRole('link')).toBeNull();
  });

  it('a REST 403 (create group) shows the server text and the link', async () => {
    mockServer({
      ...storeSessionFor(student),
      'GET /api/users': () => ({
        status: 200,
        body: [{ id: 'u-sam', firstName: 'Sam', lastName: 'Lee', profilePictureUrl: null }],
      }),
      'POST /api/groups': () => ({
        status: 403,
        body: {
          error: ACCESS_MSG.verificationRequired,
          code: 'verificationRequired',
          uploadPath: '/upload-document',
        },
      }),
    });
    renderWithSync('/create-group', fakeSyncFactory().factory);
    fireEvent.change(await screen.findByLabelText('Group Name', {}, SLOW), { target: { value: 'Study' } });
    fireEvent.click(await screen.findByRole('button', { name: /Sam Lee/ }, SLOW));
    fireEvent.click(screen.getByRole('button', { name: 'Create Group' }));
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toContain(ACCESS_MSG.verificationRequired);
    expect(linkIn(alert).getAttribute('href')).toBe('/upload-document');
  });

  it('a refused message (failed bubble) and a refused chat reaction (inline) link to the upload page', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await client.db.messages.put(
      directMessage('f', ME, SAM, 'hello?', minutesAgo(1), {
        status: 'failed',
        error: ACCESS_MSG.verificationRequired,
      }),
    );
    mockServer({});
    renderChat(client, `/chat/${SAM.id}`);
    const reason = await screen.findByText(ACCESS_MSG.verificationRequired);
    const failure = reason.closest('.message__failure') as HTMLElement;
    expect(linkIn(failure).textContent).toBe('Upload your student ID');

    await act(() =>
      client.emitError({
        type: 'message_error',
        code: 'verificationRequired',
        error: ACCESS_MSG.rejected,
        context: 'chat-reaction',
        deviceId: 'd1',
        mid: 7,
      }),
    );
    const inline = (await screen.findByText(ACCESS_MSG.rejected)).closest('p') as HTMLElement;
    expect(linkIn(inline).getAttribute('href')).toBe('/upload-document');
  });
});
