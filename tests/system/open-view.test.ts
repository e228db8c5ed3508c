import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SyncClient } from '../../packages/sync/src';
import { startFlakyProxy, type FlakyProxy } from './support/flaky-proxy';
import {
  FAST,
  addStudent,
  newDevice,
  newDeviceDatabase,
  startSystemServer,
  waitFor,
  type TestServer,
} from './support/harness';
import { recordingWire } from './support/wire';

let server: TestServer;
let proxy: FlakyProxy;
let client: SyncClient | undefined;

beforeAll(async () => {
  server = await startSystemServer();
  proxy = await startFlakyProxy({ targetPort: server.port, seed: 1, randomCuts: false });
});
afterEach(async () => {
  await client?.stop();
  client = undefined;
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

describe('open chat and group, with the real server', () => {
  it('tells the server the open chat and group after every pull, until left', async () => {
    const me = await addStudent(server, 'Ana', 'Open');
    const bo = await addStudent(server, 'Bo', 'Open');
    const res = await server.post('/api/groups', { name: 'Study', memberIds: [bo.id] }, me.token);
    expect(res.status).toBe(201);
    const groupId = res.body.id as string;
    const wire = recordingWire();
    client = newDevice({
      server,
      student: me,
      db: newDeviceDatabase(me),
      wire,
      timing: FAST,
      port: proxy.port,
    });
    // Joined right after a reload, before the socket is live: the frames cannot go out yet.
    const leaveChat = client.joinChat(bo.id);
    const leaveGroup = client.joinGroup(groupId);
    client.start();
    await waitFor(() => expect(wire.sentOf('join_chat')).toEqual([{ type: 'join_chat', peerId: bo.id }]));
    await waitFor(() => expect(wire.sentOf('join_group')).toEqual([{ type: 'join_group', groupId }]));
    const types = wire.sent.map((f) => f.type);
    expect(types.indexOf('join_chat')).toBeGreaterThan(types.indexOf('pull'));
    // The server took them: the chat's online list came back, and nothing was refused.
    await waitFor(() => expect(wire.receivedOf('online_users_list').length).toBeGreaterThanOrEqual(2));
    expect(wire.receivedOf('message_error')).toEqual([]);

    proxy.cutAll();
    await waitFor(() => expect(wire.sentOf('join_chat')).toHaveLength(2));
    await waitFor(() => expect(wire.sentOf('join_group')).toHaveLength(2));

    leaveChat();
    leaveGroup();
    proxy.cutAll();
    await waitFor(() => expect(wire.sentOf('pull')).toHaveLength(3));
    await waitFor(() => client!.getState().status === 'online');
    await new Promise((r) => setTimeout(r, 50));
    expect(wire.sentOf('join_chat')).toHaveLength(2);
    expect(wire.sentOf('join_group')).toHaveLength(2);
  });
});
