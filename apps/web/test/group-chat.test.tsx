import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { avatarHue, CHAT_MSG, NOTES_MSG, type Group } from '@campus/protocol';
import { FakeSyncClient, groupMessage, KIM, ME, minutesAgo, renderChat, SAM } from './chat-kit';
import { mockServer } from './helpers';

const group: Group = {
  id: 'g-study',
  name: 'Study Buddies',
  createdAt: '2026-11-01T10:00:00.000Z',
  createdBy: ME.id,
  members: [ME, SAM, KIM],
  avatarUrl: null,
};

async function openGroup(client: FakeSyncClient, routes = {}) {
  mockServer(routes);
  renderChat(client, `/group/${group.id}`);
  await screen.findByRole('heading', { name: 'Study Buddies' });
}

describe('group chat', () => {
  it('shows the member count, or who is typing, under the name', async () => {
    const client = new FakeSyncClient();
    await client.db.groups.put(group);
    await openGroup(client);
    expect(screen.getByText('3 members')).toBeTruthy();
    await waitFor(() => expect(client.callsOf('joinGroup')).toEqual([[group.id]]));
    // The generated avatar's colour comes from the group id.
    const avatar = document.querySelector('.group-avatar') as HTMLElement;
    expect(avatar.textContent).toBe('SB');
    const expected = document.createElement('span');
    expected.style.background = `hsl(${avatarHue(group.id)} 55% 45%)`;
    expect(avatar.style.background).toBe(expected.style.background);
    expect(avatar.style.background).not.toBe('');

    client.setState({ typing: new Map([[`g:${group.id}`, [KIM.id]]]) });
    expect(await screen.findByText('Kim is typing...')).toBeTruthy();
    expect(screen.queryByText('3 members')).toBeNull();

    // Typing in another group, or only me, shows the count again.
    client.setState({
      typing: new Map([
        [`g:${group.id}`, [ME.id]],
        ['g:other', [SAM.id]],
      ]),
    });
    expect(await screen.findByText('3 members')).toBeTruthy();
  });

  it('shows messages with the sender’s name for others and sends with the group id', async () => {
    const client = new FakeSyncClient();
    await client.db.groups.put(group);
    await client.db.groupMessages.bulkPut([
      { ...groupMessage('g2', ME, group.id, 'mine', minutesAgo(2)), seq: 2 },
      { ...groupMessage('g1', SAM, group.id, 'from sam', minutesAgo(3)), seq: 1 },
      { ...groupMessage('x', SAM, 'g-other', 'elsewhere', minutesAgo(1)), seq: 3 },
    ]);
    await openGroup(client);
    const log = screen.getByRole('log');
    await waitFor(() =>
      expect(Array.from(log.querySelectorAll('.message__text')).map((n) => n.textContent)).toEqual([
        'from sam',
        'mine',
      ]),
    );
    const samRow = within(log).getByText('from sam').closest('.message') as HTMLElement;
    expect(within(samRow).getByText('Sam Lee')).toBeTruthy();
    const myRow = within(log).getByText('mine').closest('.message') as HTMLElement;
    expect(myRow.querySelector('.message__sender')).toBeNull();

    const composer = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(composer, { target: { value: 'hello all' } });
    expect(client.callsOf('typing')).toEqual([[{ groupId: group.id }]]);
    fireEvent.keyDown(composer, { key: 'Enter' });
    expect(client.callsOf('writeGroupMessage')).toEqual([[group.id, 'hello all']]);
    expect(client.callsOf('stopTyping')).toEqual([[{ groupId: group.id }]]);
  });

  it('marks the open group seen on open and as new messages arrive, and leaves it on unmount', async () => {
    const client = new FakeSyncClient();
    await client.db.groups.put(group);
    await client.db.groupMessages.put({
      ...groupMessage('g1', SAM, group.id, 'first', minutesAgo(3)),
      seq: 1,
    });
    await openGroup(client);
    await screen.findByText('first');
    await waitFor(() => expect(client.callsOf('markGroupSeen').length).toBeGreaterThanOrEqual(1));
    const before = client.callsOf('markGroupSeen').length;
    await client.db.groupMessages.put({
      ...groupMessage('g2', KIM, group.id, 'second', minutesAgo(1)),
      seq: 2,
    });
    await screen.findByText('second');
    await waitFor(() => expect(client.callsOf('markGroupSeen').length).toBeGreaterThan(before));
    expect(client.callsOf('markGroupSeen').every(([id]) => id === group.id)).toBe(true);
    cleanup();
    expect(client.callsOf('leaveGroup')).toEqual([[group.id]]);
  });

  it('shows this group’s pending messages at the bottom even when their device time is old', async () => {
    const client = new FakeSyncClient();
    await client.db.groups.put(group);
    await client.db.groupMessages.bulkPut([
      ...Array.from({ length: 35 }, (_, i) => ({
        ...groupMessage(`s${i}`, SAM, group.id, `stored ${i}`, minutesAgo(100 - i)),
        seq: i + 1,
      })),
      {
        ...groupMessage('p1', ME, group.id, 'pending, slow clock', minutesAgo(500)),
        status: 'sending' as const,
      },
      {
        ...groupMessage('p2', ME, 'g-other', 'pending elsewhere', minutesAgo(1)),
        status: 'sending' as const,
      },
    ]);
    await openGroup(client);
    const texts = () =>
      Array.from(screen.getByRole('log').querySelectorAll('.message__text')).map((n) => n.textContent);
    await waitFor(() => expect(texts().at(-1)).toBe('pending, slow clock'));
    expect(texts()).toHaveLength(31);
    expect(texts()[0]).toBe('stored 5');
  });

  it('says real-time messaging is off while not connected, after the offline grace', async () => {
    const client = new FakeSyncClient();
    client.setState({ status: 'connecting' });
    await client.db.groups.put(group);
    await openGroup(client);
    expect(screen.queryByText(CHAT_MSG.socketNotConnected)).toBeNull();
    const alert = await screen.findByText(CHAT_MSG.socketNotConnected, {}, { timeout: 3000 });
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.className).toContain('chat__error');
    client.setState({ status: 'online' });
    await waitFor(() => expect(screen.queryByText(CHAT_MSG.socketNotConnected)).toBeNull());
  });

  it('opens and closes the group notes from the header', async () => {
    const client = new FakeSyncClient();
    await client.db.groups.put(group);
    await openGroup(client);
    const notes = screen.getByRole('button', { name: 'Notes' });
    fireEvent.click(notes);
    expect(notes.getAttribute('aria-expanded')).toBe('true');
    expect(await screen.findByText(NOTES_MSG.membersOnly)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close group notes' }));
    expect(screen.queryByText(NOTES_MSG.membersOnly)).toBeNull();
    expect(document.activeElement).toBe(notes);
  });

  it('shows only this group’s message_error frames', async () => {
    const client = new FakeSyncClient();
    await client.db.groups.put(group);
    await openGroup(client);
    await client.emitError({
      type: 'message_error',
      code: 'invalid',
      error: 'Direct problem',
      context: 'join_chat',
    });
    await client.emitError({
      type: 'message_error',
      code: 'invalid',
      error: 'Other group',
      context: 'group',
      groupId: 'g-other',
    });
    await client.emitError({
      type: 'message_error',
      code: 'notGroupMember',
      error: 'You are not a member of this group.',
      context: 'group',
      groupId: group.id,
    });
    expect((await screen.findByRole('alert')).textContent).toBe('You are not a member of this group.');
    expect(screen.queryByText('Direct problem')).toBeNull();
    expect(screen.queryByText('Other group')).toBeNull();
  });

  it('fetches a group the cache does not have, and says so when nobody has it', async () => {
    const client = new FakeSyncClient();
    await openGroup(client, { 'GET /api/groups/g-study': () => ({ status: 200, body: group }) });
    expect(screen.getByText('3 members')).toBeTruthy();

    const other = new FakeSyncClient();
    mockServer({ 'GET /api/groups/g-gone': () => ({ status: 404, body: { error: 'Group not found.' } }) });
    renderChat(other, '/group/g-gone');
    expect(await screen.findByText(CHAT_MSG.groupInfoMissing)).toBeTruthy();
  });

  it('shows the spec’s history error when the first page fails', async () => {
    const client = new FakeSyncClient();
    await client.db.groups.put(group);
    client.groupPages = async () => {
      throw new Error('boom');
    };
    await openGroup(client);
    expect((await screen.findByRole('alert')).textContent).toBe(CHAT_MSG.groupHistoryError);
  });
});
