import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockServer, storeSessionFor, student } from './helpers';
import { renderWithSync, resetDatabase, userDatabase } from './sync-provider-fake';
import { ana, friendsSync, sam, SLOW, zoe } from './friends-kit';

afterEach(async () => {
  cleanup();
  await resetDatabase(student.id);
});

const names = () =>
  within(screen.getByRole('list', { name: 'Friends' }))
    .getAllByRole('listitem')
    .map((row) => row.querySelector('.friend-row__name')?.textContent);

describe('Friends screen', () => {
  it('shows six skeleton rows while the first load runs, then the empty state', async () => {
    let finish: (() => void) | undefined;
    const sync = friendsSync(() => new Promise<void>((resolve) => (finish = resolve)));
    mockServer(storeSessionFor(student));
    renderWithSync('/friends', sync.factory);

    const skeletons = await screen.findByTestId('friend-skeletons', undefined, SLOW);
    expect(skeletons.querySelectorAll('li')).toHaveLength(6);
    // The skeletons can show before the screen has asked for the first load: wait for the ask.
    await waitFor(() => expect(finish).toBeTypeOf('function'), SLOW);
    finish!();
    expect(await screen.findByText('No friends yet', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText('Start connecting with people and build your network!')).toBeTruthy();
    expect(screen.queryByTestId('friend-skeletons')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Find Buddies' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/random-talk-options'));
  });

  it('shows the error with Retry, which loads again', async () => {
    let calls = 0;
    const sync = friendsSync(() => (++calls === 1 ? Promise.reject(new Error('500')) : Promise.resolve()));
    mockServer(storeSessionFor(student));
    renderWithSync('/friends', sync.factory);

    expect(await screen.findByText('Failed to fetch friends.', undefined, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No friends yet', undefined, SLOW)).toBeTruthy();
    expect(calls).toBe(2);
  });

  it('lists friends by name with online dots, staggered, with search, clear, online only and counts', async () => {
    await userDatabase(student.id).friends.bulkPut([zoe, sam, ana]);
    const sync = friendsSync(() => Promise.resolve(), [sam.id]);
    mockServer(storeSessionFor(student));
    renderWithSync('/friends', sync.factory);

    await waitFor(() => expect(names()).toEqual(['Ana Costa', 'Sam Lee', 'Zoe Park']), SLOW);
    expect(screen.getByText('3 total')).toBeTruthy();
    const rows = within(screen.getByRole('list', { name: 'Friends' })).getAllByRole('listitem');
    expect(rows.map((row) => row.style.animationDelay)).toEqual(['0ms', '50ms', '100ms']);
    expect(within(rows[1]!).getByRole('img', { name: 'Online' })).toBeTruthy();
    expect(within(rows[0]!).getByRole('img', { name: 'Offline' })).toBeTruthy();
    expect(within(rows[1]!).getByRole('link', { name: 'Chat with Sam Lee' }).getAttribute('href')).toBe(
      '/chat/u-sam',
    );

    const search = screen.getByPlaceholderText('Search friends...');
    fireEvent.change(search, { target: { value: 'PAR' } });
    expect(names()).toEqual(['Zoe Park']);
    expect(screen.getByText('Showing 1 / 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect((search as HTMLInputElement).value).toBe('');
    expect(screen.getByText('3 total')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Show Online Only' }));
    expect(names()).toEqual(['Sam Lee']);
    expect(screen.getByText('Showing 1 / 3')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Showing Online Only' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    // Presence going live moves a friend into the filtered list.
    sync.latest()!.setState({ online: new Set([sam.id, zoe.id]) });
    await waitFor(() => expect(names()).toEqual(['Sam Lee', 'Zoe Park']));
  });

  it('blocks a friend from the row menu after confirming, through the outbox', async () => {
    await userDatabase(student.id).friends.bulkPut([sam, ana]);
    const sync = friendsSync(() => Promise.resolve());
    mockServer(storeSessionFor(student));
    renderWithSync('/friends', sync.factory);

    fireEvent.click(await screen.findByRole('button', { name: 'More actions for Sam Lee' }, SLOW));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Sam Lee' })).getByRole('button', { name: 'Block' }),
    );
    const confirm = screen.getByRole('alertdialog', { name: 'Block user' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(names()).toEqual(['Ana Costa']), SLOW);
    const db = sync.latest()!.db;
    expect((await db.outbox.toArray()).map((row) => row.frame)).toMatchObject([
      { type: 'block_user', userId: sam.id },
    ]);
    expect(await db.blocks.get(sam.id)).toMatchObject({ firstName: 'Sam' });
  });

  it('unfriends from the row menu through the server, then reloads', async () => {
    await userDatabase(student.id).friends.bulkPut([sam]);
    const sync = friendsSync(() => Promise.resolve());
    const server = mockServer({
      ...storeSessionFor(student),
      'DELETE /api/users/friends/u-sam': () => ({ status: 200, body: { message: 'Friend removed.' } }),
    });
    renderWithSync('/friends', sync.factory);

    fireEvent.click(await screen.findByRole('button', { name: 'More actions for Sam Lee' }, SLOW));
    fireEvent.click(screen.getByRole('button', { name: 'Unfriend' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Unfriend' });
    expect(confirm.textContent).toContain('Remove Sam Lee from your friends?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Unfriend' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), SLOW);
    expect(server.calls.some((c) => c.method === 'DELETE' && c.path === '/api/users/friends/u-sam')).toBe(
      true,
    );
    // Mount, then after the unfriend.
    expect(sync.latest()!.loadFriends).toHaveBeenCalledTimes(2);
  });
});
