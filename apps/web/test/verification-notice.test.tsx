import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ACCESS_MSG, CONFESSION_MSG, type Group, type User } from '@campus/protocol';
import { CallLayer } from '../src/features/calls/CallLayer';
import { ChatPage } from '../src/features/chat/ChatPage';
import { GroupChatPage } from '../src/features/group-chat/GroupChatPage';
import { SessionContext, type SessionContextValue } from '../src/features/session/session-context';
import { SyncContext } from '../src/features/sync/sync-context';
import { VerificationNotice } from '../src/features/upload/VerificationNotice';
import { createApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';
import { PlatformProvider } from '../src/platform';
import { directMessage, FakeSyncClient, ME, minutesAgo, SAM, seedPartner } from './chat-kit';
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
import { fakePlatform, mockServer, storeSessionFor, student } from './helpers';
import { fakeSyncFactory, renderWithSync } from './sync-provider-fake';

/** The demo student before verification: same id, so the usual cache reset applies. */
const limited: User = { ...student, documentStatus: 'pending_submission', access: 'limited' };

afterEach(resetConfessions);

const notice = (name = 'Verify your student ID') => screen.getByRole('note', { name });
const uploadLink = (scope: HTMLElement, name = 'Upload your student ID') =>
  within(scope).getByRole('link', { name }).getAttribute('href');

function session(user: User): SessionContextValue {
  return {
    status: 'signed-in',
    user,
    endedBy: null,
    signIn: () => undefined,
    updateUser: () => undefined,
    logout: async () => undefined,
    expire: async () => undefined,
    retry: () => undefined,
  };
}

/** The chat routes alone for `user`, on the fake sync client of the chat tests. */
function renderChatAs(user: User, client: FakeSyncClient, path: string) {
  mockServer({});
  render(
    <MemoryRouter initialEntries={[path]}>
      <PlatformProvider platform={fakePlatform()}>
        <ApiProvider api={createApiClient({ baseUrl: '', getToken: () => 'token-test' })}>
          <SessionContext value={session(user)}>
            <SyncContext value={client}>
              <CallLayer>
                <Routes>
                  <Route path="/chat/:userId" element={<ChatPage />} />
                  <Route path="/group/:groupId" element={<GroupChatPage />} />
                </Routes>
              </CallLayer>
            </SyncContext>
          </SessionContext>
        </ApiProvider>
      </PlatformProvider>
    </MemoryRouter>,
  );
}

describe('the notice itself', () => {
  it.each([
    [
      'pending_submission',
      'Verify your student ID',
      ACCESS_MSG.verificationRequired,
      'Upload your student ID',
    ],
    [
      'pending_verification',
      'Verification Pending',
      ACCESS_MSG.pendingVerification,
      'See your verification status',
    ],
    ['rejected', 'Document Rejected', ACCESS_MSG.rejected, 'Upload again'],
  ] as const)('%s: says why and links to the upload page', (status, title, text, link) => {
    const user: User = { ...limited, documentStatus: status, rejectionReason: 'Blurred photo.' };
    render(
      <MemoryRouter>
        <SessionContext value={session(user)}>
          <VerificationNotice />
        </SessionContext>
      </MemoryRouter>,
    );
    const shown = notice(title);
    expect(shown.textContent).toContain(text);
    expect(uploadLink(shown, link)).toBe('/upload-document');
    expect(shown.textContent?.includes('Blurred photo.')).toBe(status === 'rejected');
  });
});

describe('confessions for an account that is not verified yet', () => {
  it('explains instead of opening the composer, reacting or commenting', async () => {
    mockServer({
      ...storeSessionFor(limited),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([confession('c1', { nickname: 'Poet' })]),
      'GET /api/confessions/c1/comments': () => ({ status: 200, body: { comments: [], total: 0 } }),
    });
    const server = renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    expect(uploadLink(notice())).toBe('/upload-document');

    fireEvent.click(screen.getByRole('button', { name: CONFESSION_MSG.postButton }));
    const dialog = screen.getByRole('dialog', { name: 'Student ID needed' });
    expect(within(dialog).getByRole('note').textContent).toContain(ACCESS_MSG.verificationRequired);
    expect(screen.queryByLabelText('Your confession')).toBeNull();
    fireEvent.keyDown(document, { key: 'Escape' });

    const like = within(card('Poet')).getByRole('button', { name: /^Like/ });
    fireEvent.click(like);
    expect(screen.getByRole('dialog', { name: 'Student ID needed' })).toBeTruthy();
    expect(like.getAttribute('aria-pressed')).toBe('false');
    fireEvent.keyDown(document, { key: 'Escape' });

    fireEvent.click(within(card('Poet')).getByRole('button', { name: /^Comment/ }));
    const panel = screen.getByRole('dialog', { name: 'Comments' });
    expect(within(panel).getByRole('note')).toBeTruthy();
    expect(within(panel).queryByLabelText('Add a comment')).toBeNull();
    expect(server.received('confession_react')).toHaveLength(0);
  });
});

describe('talk, new chat and create group', () => {
  it('New chat explains instead of searching the directory', async () => {
    const { calls } = mockServer(storeSessionFor(limited));
    renderWithSync('/talk', fakeSyncFactory().factory);
    fireEvent.click(await screen.findByRole('button', { name: 'New chat' }, SLOW));
    const dialog = screen.getByRole('dialog', { name: 'New chat' });
    expect(uploadLink(dialog)).toBe('/upload-document');
    expect(within(dialog).queryByLabelText('Search students')).toBeNull();
    expect(calls.some((call) => call.path.startsWith('/api/users'))).toBe(false);
  });

  it('Create group explains instead of showing the form', async () => {
    mockServer(storeSessionFor(limited));
    renderWithSync('/create-group', fakeSyncFactory().factory);
    expect(uploadLink(await screen.findByRole('note', {}, SLOW))).toBe('/upload-document');
    expect(screen.queryByLabelText('Group Name')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create Group' })).toBeNull();
  });
});

describe('chats', () => {
  const group: Group = {
    id: 'g1',
    name: 'Study Group',
    createdAt: minutesAgo(60),
    createdBy: SAM.id,
    members: [ME, SAM],
    avatarUrl: null,
  };

  it('a direct chat nobody has written in yet: the notice instead of the composer', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    renderChatAs(limited, client, `/chat/${SAM.id}`);
    await screen.findByRole('heading', { name: 'Sam Lee' });
    expect(await screen.findByRole('note')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
  });

  it('a direct chat the partner started: the account may answer', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await client.db.messages.put(directMessage('m1', SAM, ME, 'Hi there', minutesAgo(1), { seq: 1 }));
    renderChatAs(limited, client, `/chat/${SAM.id}`);
    await screen.findByText('Hi there');
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('a group: the notice instead of the composer', async () => {
    const client = new FakeSyncClient();
    await client.db.groups.put(group);
    renderChatAs(limited, client, '/group/g1');
    expect(await screen.findByRole('note')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
  });
});
