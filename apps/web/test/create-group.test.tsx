import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CHAT_MSG, DIRECTORY_PAGE_MAX, type Group } from '@campus/protocol';
import { mockServer, storeSessionFor, student } from './helpers';
import { fakeSyncFactory, renderWithSync, resetDatabase } from './sync-provider-fake';

afterEach(() => resetDatabase(student.id));

/** The first render waits on the session check and IndexedDB: slow under a busy parallel run. */
const SLOW = { timeout: 5000 };

// Directory entries as the server sends them: names and avatars, no e-mail addresses.
const sam = { id: 'u-sam', firstName: 'Sam', lastName: 'Lee', profilePictureUrl: null };
const kim = { ...sam, id: 'u-kim', firstName: 'Kim', lastName: 'Park' };

const group: Group = {
  id: 'g-new',
  name: 'Study Group',
  createdAt: '2026-11-23T10:00:00.000Z',
  createdBy: student.id,
  members: [
    { id: student.id, firstName: 'Alex', lastName: 'Rivera', profilePictureUrl: null },
    { id: sam.id, firstName: 'Sam', lastName: 'Lee', profilePictureUrl: null },
  ],
  avatarUrl: null,
};

const alertText = () => screen.getByRole('alert').textContent;
const createButton = () => screen.getByRole('button', { name: 'Create Group' });

describe('Create Group', () => {
  it('checks the name, then the members, and asks the server to search by name or whole e-mail', async () => {
    const { calls } = mockServer({
      ...storeSessionFor(student),
      'GET /api/users': () => ({ status: 200, body: [sam, kim] }),
      // The server matches a whole address only (server/test/directory.test.ts); the picker just asks.
      'GET /api/users?q=kpark%40uni.test': () => ({ status: 200, body: [kim] }),
      'GET /api/users?q=nobody': () => ({ status: 200, body: [] }),
    });
    renderWithSync('/create-group', fakeSyncFactory().factory);
    await screen.findByRole('button', { name: /Sam Lee/ }, SLOW);

    fireEvent.change(screen.getByLabelText('Group Name'), { target: { value: '   ' } });
    fireEvent.click(createButton());
    expect(alertText()).toBe(CHAT_MSG.groupNameRequired);

    fireEvent.change(screen.getByLabelText('Group Name'), { target: { value: 'Study Group' } });
    fireEvent.click(createButton());
    expect(alertText()).toBe(CHAT_MSG.groupMembersRequired);

    const search = screen.getByLabelText('Search members');
    fireEvent.change(search, { target: { value: 'kpark@uni.test' } });
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Students' }))
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual([expect.stringContaining('Kim Park')]),
    );
    expect(screen.queryByText(/@/)).toBeNull(); // no address is shown
    fireEvent.change(search, { target: { value: 'nobody' } });
    expect(await screen.findByText(CHAT_MSG.noUsersFound)).toBeTruthy();
    expect(calls.some((call) => call.path === '/api/users?q=kpark%40uni.test')).toBe(true);
  });

  it('loads the next page after the last student of a full page', async () => {
    const page = Array.from({ length: DIRECTORY_PAGE_MAX }, (_, i) => ({
      ...sam,
      id: `u-${String(i).padStart(2, '0')}`,
      firstName: `Stu${String(i).padStart(2, '0')}`,
    }));
    mockServer({
      ...storeSessionFor(student),
      'GET /api/users': () => ({ status: 200, body: page }),
      [`GET /api/users?after=u-${DIRECTORY_PAGE_MAX - 1}`]: () => ({ status: 200, body: [kim] }),
    });
    renderWithSync('/create-group', fakeSyncFactory().factory);
    fireEvent.click(await screen.findByRole('button', { name: 'More students' }, SLOW));
    await screen.findByRole('button', { name: /Kim Park/ });
    expect(screen.queryByRole('button', { name: 'More students' })).toBeNull();
  });

  it('toggles members, removes them by chip, creates the group, stores it and opens it', async () => {
    const sync = fakeSyncFactory();
    const { calls } = mockServer({
      ...storeSessionFor(student),
      'GET /api/users': () => ({ status: 200, body: [sam, kim] }),
      'POST /api/groups': () => ({ status: 201, body: group }),
    });
    renderWithSync('/create-group', sync.factory);
    fireEvent.change(await screen.findByLabelText('Group Name', {}, SLOW), {
      target: { value: ' Study Group ' },
    });
    const samRow = await screen.findByRole('button', { name: /Sam Lee/ }, SLOW);
    fireEvent.click(samRow);
    expect(samRow.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: /Kim Park/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Kim Park' }));
    expect(screen.queryByRole('button', { name: 'Remove Kim Park' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Sam Lee' })).toBeTruthy();

    fireEvent.click(createButton());
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/group/g-new'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Study Group',
      memberIds: ['u-sam'],
    });
    const db = sync.latest()!.db;
    expect(await db.groups.get('g-new')).toEqual(group);
    expect(await db.conversations.get('g-new')).toMatchObject({ name: 'Study Group', isGroup: true });
  });

  it.each([
    [
      { status: 400, body: { error: 'One or more selected members do not exist.' } },
      'One or more selected members do not exist.',
    ],
    [{ status: 500 }, CHAT_MSG.groupCreateFailed],
    ['network-error' as const, CHAT_MSG.groupCreateError],
  ])('shows the server error text, else the spec fallback (%#)', async (reply, text) => {
    mockServer({
      ...storeSessionFor(student),
      'GET /api/users': () => ({ status: 200, body: [sam] }),
      'POST /api/groups': () => reply,
    });
    renderWithSync('/create-group', fakeSyncFactory().factory);
    fireEvent.change(await screen.findByLabelText('Group Name', {}, SLOW), {
      target: { value: 'Study Group' },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Sam Lee/ }, SLOW));
    fireEvent.click(createButton());
    await waitFor(() => expect(alertText()).toBe(text), SLOW);
    expect(screen.getByTestId('location').textContent).toBe('/create-group');
  });

  it.each([
    [{ status: 500 }, CHAT_MSG.usersFetchFailed],
    ['network-error' as const, CHAT_MSG.usersLoadFailed],
  ])('says when the students cannot be loaded (%#)', async (reply, text) => {
    mockServer({ ...storeSessionFor(student), 'GET /api/users': () => reply });
    renderWithSync('/create-group', fakeSyncFactory().factory);
    await waitFor(() => expect(alertText()).toBe(text), SLOW);
  });

  it('goes back to Talk', async () => {
    mockServer({ ...storeSessionFor(student), 'GET /api/users': () => ({ status: 200, body: [] }) });
    renderWithSync('/create-group', fakeSyncFactory().factory);
    fireEvent.click(await screen.findByRole('link', { name: 'Back to Talk' }, SLOW));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/talk'));
  });
});
