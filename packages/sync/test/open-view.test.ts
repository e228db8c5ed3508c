import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupMessage } from '@campus/protocol';
import type { SyncClient } from '../src';
import { readCursor } from '../src/meta';
import { FakeServer, waitFor } from './support/fake-server';
import { BO, ME, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

const GROUP = 'group-study';
let n = 0;
function groupMessage(content: string): GroupMessage {
  n += 1;
  return {
    id: crypto.randomUUID(),
    from: BO,
    group: GROUP,
    content,
    timestamp: new Date(Date.parse('2026-11-23T10:00:00.000Z') + n * 1000).toISOString(),
    attachmentUrl: null,
    attachmentType: null,
    status: 'sent',
  };
}

describe('open chat and group', () => {
  it('tells the server the open chat and group after every pull, until left', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    // Joined right after a reload, before the socket is live: the frames cannot go out yet.
    const leaveChat = client.joinChat(BO.id);
    const leaveGroup = client.joinGroup(GROUP);
    client.start();
    await waitFor(() =>
      expect(server.framesOfType('join_chat')).toEqual([{ type: 'join_chat', peerId: BO.id }]),
    );
    await waitFor(() => expect(server.framesOfType('join_group')).toHaveLength(1));
    const types = server.received.map((f) => f.type);
    expect(types.indexOf('join_chat')).toBeGreaterThan(types.indexOf('pull'));

    server.cutAll();
    await waitFor(() => expect(server.framesOfType('join_chat')).toHaveLength(2));
    await waitFor(() => expect(server.framesOfType('join_group')).toHaveLength(2));

    leaveChat();
    leaveGroup();
    server.cutAll();
    await waitFor(() => expect(server.framesOfType('pull')).toHaveLength(3));
    await waitFor(() => client!.getState().status === 'online');
    await new Promise((r) => setTimeout(r, 50));
    expect(server.framesOfType('join_chat')).toHaveLength(2);
    expect(server.framesOfType('join_group')).toHaveLength(2);
  });

  it('does not count messages of the open group as unread, and markGroupSeen clears the badge', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    server.emit({ type: 'receive_group_message', seq: 0, message: groupMessage('one') });
    server.emit({ type: 'receive_group_message', seq: 0, message: groupMessage('two') });
    await waitFor(async () => expect((await client!.db.conversations.get(GROUP))?.unreadCount).toBe(2));

    const leave = client.joinGroup(GROUP);
    await client.markGroupSeen(GROUP);
    expect((await client.db.conversations.get(GROUP))?.unreadCount).toBe(0);
    await waitFor(() => expect(server.framesOfType('join_group').length).toBeGreaterThanOrEqual(1));

    server.emit({ type: 'receive_group_message', seq: 0, message: groupMessage('while open') });
    await waitFor(async () => expect(await readCursor(client!.db)).toBe(3));
    const row = await client.db.conversations.get(GROUP);
    expect(row).toMatchObject({ unreadCount: 0, lastMessageSnippet: 'while open' });

    leave();
    server.emit({ type: 'receive_group_message', seq: 0, message: groupMessage('after leaving') });
    await waitFor(async () => expect((await client!.db.conversations.get(GROUP))?.unreadCount).toBe(1));
  });

  it('a group read on another device clears the unread count here, keeping what came after the mark', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    const first = server.emit({ type: 'receive_group_message', seq: 0, message: groupMessage('one') });
    const second = server.emit({ type: 'receive_group_message', seq: 0, message: groupMessage('two') });
    await waitFor(async () => expect((await client!.db.conversations.get(GROUP))?.unreadCount).toBe(2));

    // Another device read up to the first message only (it had not heard the second yet).
    server.emit({ type: 'group_read', seq: 0, groupId: GROUP, readSeq: first.seq });
    await waitFor(async () => expect((await client!.db.conversations.get(GROUP))?.unreadCount).toBe(1));

    server.emit({ type: 'group_read', seq: 0, groupId: GROUP, readSeq: second.seq });
    await waitFor(async () => expect((await client!.db.conversations.get(GROUP))?.unreadCount).toBe(0));
  });
});
