import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CHAT_MSG, type ConversationItem } from '@campus/protocol';
import { mockServer, storeSessionFor, student } from './helpers';
import { fakeSyncFactory, renderWithSync, resetDatabase, userDatabase } from './sync-provider-fake';

afterEach(() => resetDatabase(student.id));

/** IndexedDB work under a busy parallel test run can take longer than the default second. */
const SLOW = { timeout: 5000 };

function conversation(overrides: Partial<ConversationItem> & { id: string }): ConversationItem {
  return {
    name: 'Someone',
    avatarUrl: null,
    lastMessageSnippet: '',
    lastMessageTimestamp: '2026-11-20T10:00:00.000Z',
    unreadCount: 0,
    isGroup: false,
    email: null,
    lastActiveAt: null,
    ...overrides,
  };
}

const rows = () => within(screen.getByRole('list', { name: 'Recent conversations' })).getAllByRole('button');

describe('Talk home', () => {
  it('lists the cached conversations newest first, with snippet, unread count and online dot', async () => {
    const db = userDatabase(student.id);
    await db.conversations.bulkPut([
      conversation({ id: 'u-old', name: 'Old Friend', lastMessageSnippet: 'long ago' }),
      conversation({
        id: 'u-sam',
        name: 'Sam Lee',
        lastMessageSnippet: 'This message is definitely longer than thirty characters',
        lastMessageTimestamp: '2026-11-22T09:00:00.000Z',
        unreadCount: 3,
      }),
      conversation({
        id: 'g-1',
        name: 'Study Group',
        isGroup: true,
        lastMessageSnippet: 'see you',
        lastMessageTimestamp: '2026-11-21T09:00:00.000Z',
      }),
    ]);
    const sync = fakeSyncFactory({ online: new Set(['u-sam']) });
    mockServer(storeSessionFor(student));
    renderWithSync('/talk', sync.factory);

    await waitFor(() => expect(rows()).toHaveLength(3), SLOW);
    // The accessible name is the row's content: name, status, time and snippet (nothing replaced by a label).
    // (jsdom's name computation trims each text node, browsers keep the spaces: both are accepted.)
    expect(rows().map((row) => row.getAttribute('aria-label'))).toEqual([null, null, null]);
    const list = screen.getByRole('list', { name: 'Recent conversations' });
    const named = (name: RegExp) => within(list).getByRole('button', { name });
    expect(named(/^Sam Lee, online, 3 unread,\s*\S.*:\s*This message is definitely lon\.\.\.$/)).toBe(
      rows()[0],
    );
    expect(named(/^Study Group, group,\s*\S.*:\s*see you$/)).toBe(rows()[1]);
    expect(named(/^Old Friend,\s*\S.*:\s*long ago$/)).toBe(rows()[2]);
    expect(within(rows()[0]!).getByText('This message is definitely lon...')).toBeTruthy();
    expect(within(rows()[0]!).getByText('3')).toBeTruthy();

    // A new message arriving through sync moves its conversation to the top.
    await act(() =>
      db.conversations.update('u-old', {
        lastMessageSnippet: 'back again',
        lastMessageTimestamp: '2026-11-23T08:00:00.000Z',
        unreadCount: 1,
      }),
    );
    await waitFor(
      () =>
        expect(within(list).getByRole('button', { name: /^Old Friend, 1 unread,.*back again$/ })).toBe(
          rows()[0],
        ),
      SLOW,
    );

    fireEvent.click(rows()[2]!);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/group/g-1'));
  });

  it('shows the live online count once known, and an empty state without conversations', async () => {
    const sync = fakeSyncFactory();
    mockServer(storeSessionFor(student));
    renderWithSync('/talk', sync.factory);
    expect(await screen.findByText('No conversations yet', {}, SLOW)).toBeTruthy();
    expect(screen.queryByText(/students? online/)).toBeNull();
    act(() => sync.latest()!.setState({ onlineCount: 42 }));
    expect(screen.getByText('42 students online')).toBeTruthy();
  });

  it('asks for the missing profile fields before Random Talk, and goes to Profile', async () => {
    const incomplete = { ...student, college: null, year: null };
    mockServer(storeSessionFor(incomplete));
    renderWithSync('/talk', fakeSyncFactory().factory);
    fireEvent.click(await screen.findByRole('button', { name: /Random Talk/ }));
    const dialog = screen.getByRole('dialog', { name: 'Complete Your Profile' });
    const items = within(within(dialog).getByRole('list', { name: 'Profile items' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual(['✓Branch / Course: completed', '!College: missing', '!Year of Study: missing']);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Random Talk/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Complete Profile' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/profile'));
  });

  it('opens Random Talk options for a complete profile, and the Friends List', async () => {
    mockServer(storeSessionFor(student));
    renderWithSync('/talk', fakeSyncFactory().factory);
    fireEvent.click(await screen.findByRole('button', { name: /Random Talk/ }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/random-talk-options'));
    fireEvent.click(screen.getByRole('link', { name: 'Talk' }));
    fireEvent.click(await screen.findByRole('button', { name: /Friends List/ }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/friends'));
  });

  it('finds a student for a new chat through the directory', async () => {
    // A directory entry: name and avatar, no e-mail address.
    const sam = { id: 'u-sam', firstName: 'Sam', lastName: 'Lee', profilePictureUrl: null };
    const { calls } = mockServer({
      ...storeSessionFor(student),
      'GET /api/users': () => ({ status: 200, body: [sam] }),
      'GET /api/users?q=sam': () => ({ status: 200, body: [sam] }),
      'GET /api/users?q=zz': () => ({ status: 200, body: [] }),
    });
    renderWithSync('/talk', fakeSyncFactory().factory);
    fireEvent.click(await screen.findByRole('button', { name: 'New chat' }));
    const search = screen.getByLabelText('Search students');
    fireEvent.change(search, { target: { value: 'zz' } });
    expect(await screen.findByText(CHAT_MSG.noUsersFound)).toBeTruthy();
    fireEvent.change(search, { target: { value: 'sam' } });
    fireEvent.click(await screen.findByRole('button', { name: /Sam Lee/ }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/chat/u-sam'));
    expect(calls.some((call) => call.path === '/api/users?q=sam')).toBe(true);
  });

  it.each([
    [{ status: 500, body: { error: 'boom' } }, CHAT_MSG.usersForChatFailed],
    ['network-error' as const, CHAT_MSG.usersListFailed],
  ])('shows the spec text when the users cannot be loaded (%#)', async (reply, text) => {
    mockServer({ ...storeSessionFor(student), 'GET /api/users': () => reply });
    renderWithSync('/talk', fakeSyncFactory().factory);
    fireEvent.click(await screen.findByRole('button', { name: 'New chat' }));
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });
});
