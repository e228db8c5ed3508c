import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FRIEND_MSG } from '@campus/protocol';
import { FakeSyncClient, renderChat, SAM, seedPartner } from './chat-kit';
import { mockServer, storeSessionFor, student } from './helpers';
import { renderWithSync, resetDatabase, userDatabase } from './sync-provider-fake';
import { ana, friendsSync, request, sam, SLOW } from './friends-kit';

afterEach(async () => {
  cleanup();
  await resetDatabase(student.id);
});

const queued = async (client: { db: FakeSyncClient['db'] }) =>
  (await client.db.outbox.toArray()).map((row) => row.frame);

describe('Friend requests modal', () => {
  it('opens from Requests (n) on the Friends screen; Accept and Reject go through the outbox', async () => {
    await userDatabase(student.id).friendRequests.bulkPut([
      request('r-1', sam, '2026-11-20T10:00:00.000Z'),
      request('r-2', ana, '2026-11-21T10:00:00.000Z'),
    ]);
    const sync = friendsSync(() => Promise.resolve());
    mockServer(storeSessionFor(student));
    renderWithSync('/friends', sync.factory);

    fireEvent.click(await screen.findByRole('button', { name: 'Requests (2)' }, SLOW));
    const modal = screen.getByRole('dialog', { name: 'Friend requests' });
    const rows = await within(modal).findAllByRole('listitem');
    // Newest first.
    expect(rows.map((row) => row.textContent)).toEqual(['ACAna CostaAcceptReject', 'SLSam LeeAcceptReject']);

    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(within(modal).getAllByRole('listitem')).toHaveLength(1), SLOW);
    fireEvent.click(within(modal).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(within(modal).queryAllByRole('listitem')).toHaveLength(0), SLOW);
    expect(within(modal).getByText('No friend requests')).toBeTruthy();

    expect(await queued(sync.latest()!)).toMatchObject([
      { type: 'decide_friend_request', requestId: 'r-1', decision: 'accept' },
      { type: 'decide_friend_request', requestId: 'r-2', decision: 'reject' },
    ]);
    fireEvent.click(within(modal).getByRole('button', { name: 'Close' }));
    // The accepted sender shows as a friend at once.
    expect(await screen.findByRole('link', { name: 'Chat with Sam Lee' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Requests (0)' })).toBeTruthy();
  });

  it("says 'Failed to update request' when the server refuses an answer", async () => {
    await userDatabase(student.id).friendRequests.put(request('r-9', sam, '2026-11-22T10:00:00.000Z'));
    const sync = friendsSync(() => Promise.resolve());
    mockServer(storeSessionFor(student));
    renderWithSync('/friends', sync.factory);
    fireEvent.click(await screen.findByRole('button', { name: 'Requests (1)' }, SLOW));
    const modal = screen.getByRole('dialog', { name: 'Friend requests' });
    fireEvent.click(await within(modal).findByRole('button', { name: 'Accept' }, SLOW));
    act(() =>
      sync.latest()!.emitError({
        type: 'message_error',
        code: 'conflict',
        error: 'This request was already answered.',
        context: 'decide_friend_request',
        deviceId: 'd-1',
        mid: 1,
      }),
    );
    expect((await within(modal).findByRole('alert', {}, SLOW)).textContent).toBe(FRIEND_MSG.updateFailed);
  });

  it('opens from the push link /talk?friendRequests=1 and says when the requests cannot be fetched', async () => {
    const sync = friendsSync(() => Promise.reject(new Error('500')));
    mockServer(storeSessionFor(student));
    renderWithSync('/talk?friendRequests=1', sync.factory);

    const modal = await screen.findByRole('dialog', { name: 'Friend requests' }, SLOW);
    expect((await within(modal).findByRole('alert')).textContent).toBe(FRIEND_MSG.fetchRequestsFailed);
    fireEvent.click(within(modal).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/talk'));
  });
});

describe('Chat header friend actions', () => {
  it('sends a friend request with Add Friend and then shows Request sent', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    const server = mockServer({
      'POST /api/users/friends/requests': () => ({
        status: 201,
        body: { message: 'Friend request sent!', outcome: 'sent' },
      }),
    });
    renderChat(client, `/chat/${SAM.id}`);

    fireEvent.click(await screen.findByRole('button', { name: 'Add Friend' }, SLOW));
    expect(await screen.findByRole('button', { name: 'Request sent' }, SLOW)).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByRole('status').textContent).toBe('Friend request sent!');
    expect(server.calls.find((c) => c.method === 'POST')).toMatchObject({ body: { to: SAM.id } });
  });

  it("shows the server's refusal, and Friends for a friend", async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    mockServer({
      'POST /api/users/friends/requests': () => ({
        status: 429,
        body: { error: 'Too many friend requests. Try again later.' },
      }),
    });
    renderChat(client, `/chat/${SAM.id}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Add Friend' }, SLOW));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many friend requests. Try again later.');

    await client.db.friends.put(SAM);
    expect(await screen.findByText('Friends', undefined, SLOW)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Friend' })).toBeNull();
  });

  it('blocks after confirming and unblocks from the header menu, through the outbox', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    mockServer({});
    renderChat(client, `/chat/${SAM.id}`);

    fireEvent.click(await screen.findByRole('button', { name: 'More chat actions' }, SLOW));
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Block user' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Block' }));
    await waitFor(async () => expect(await client.db.blocks.get(SAM.id)).toBeTruthy(), SLOW);
    // A blocked partner gets no Add Friend.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Add Friend' })).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'More chat actions' }));
    fireEvent.click(screen.getByRole('button', { name: 'Unblock' }));
    await waitFor(async () => expect(await client.db.blocks.get(SAM.id)).toBeUndefined(), SLOW);
    expect((await queued(client)).map((f) => f.type)).toEqual(['block_user', 'unblock_user']);
  });
});

describe('Blocked users in Profile', () => {
  it('lists blocked users and unblocks through the outbox', async () => {
    await userDatabase(student.id).blocks.put({ ...sam, blockedAt: '2026-11-20T10:00:00.000Z' });
    const sync = friendsSync(() => Promise.resolve());
    mockServer(storeSessionFor(student));
    renderWithSync('/profile', sync.factory);

    const section = (await screen.findByRole('heading', { name: 'Blocked users' }, SLOW)).closest('section')!;
    fireEvent.click(await within(section).findByRole('button', { name: 'Unblock Sam Lee' }, SLOW));
    expect(await within(section).findByText('You have not blocked anyone.', undefined, SLOW)).toBeTruthy();
    expect(await queued(sync.latest()!)).toMatchObject([{ type: 'unblock_user', userId: sam.id }]);
  });
});
