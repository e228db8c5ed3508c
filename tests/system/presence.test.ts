import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeDirectMessage, type SyncClient } from '../../packages/sync/src';
import { startFlakyProxy, type FlakyProxy } from './support/flaky-proxy';
import {
  FAST,
  addStudent,
  newDevice,
  newDeviceDatabase,
  startDevice,
  startSystemServer,
  waitFor,
  type Student,
  type TestServer,
} from './support/harness';
import { recordingWire } from './support/wire';

let server: TestServer;
let proxy: FlakyProxy;
let clients: SyncClient[] = [];

beforeAll(async () => {
  // The online count goes out at most this often (2 s in production).
  server = await startSystemServer({ onlineCountEveryMs: 20 });
  proxy = await startFlakyProxy({ targetPort: server.port, seed: 1, randomCuts: false });
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  clients = [];
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

function device(student: Student, port?: number): SyncClient {
  const client = startDevice({ server, student, db: newDeviceDatabase(student), timing: FAST, port });
  clients.push(client);
  return client;
}

async function groupOf(owner: Student, members: Student[]): Promise<string> {
  const body = { name: 'Study', memberIds: members.map((m) => m.id) };
  const res = await server.post('/api/groups', body, owner.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

describe('ephemeral state from the real server', () => {
  it('tracks presence, the online count and who is typing, with a new object only on change', async () => {
    const me = await addStudent(server, 'Ana', 'Presence');
    const bo = await addStudent(server, 'Bo', 'Presence');
    const cy = await addStudent(server, 'Cy', 'Presence');
    // Contacts hear each other's presence and typing: a shared group, and a chat with Bo.
    const g = await groupOf(me, [bo, cy]);
    const client = device(me, proxy.port);
    await waitFor(() => client.getState().status === 'online');
    const before = client.getState();
    expect(client.getState()).toBe(before);

    const boClient = device(bo);
    const cyClient = device(cy);
    await boClient.run(writeDirectMessage, me.ref, 'hi');
    await waitFor(async () => expect((await client.db.conversations.get(bo.id))?.name).toBe('Bo Presence'));
    boClient.typing({ roomId: me.id });
    boClient.typing({ groupId: g });
    await waitFor(() => expect(client.getState().typing.get(`g:${g}`)).toEqual([bo.id]));
    cyClient.typing({ groupId: g });
    await waitFor(() => expect(client.getState().typing.get(`g:${g}`)).toEqual([bo.id, cy.id]));
    await waitFor(() => expect(client.getState().onlineCount).toBe(3));
    let state = client.getState();
    expect(state).not.toBe(before);
    expect([...state.online].sort()).toEqual([bo.id, cy.id].sort());
    expect(state.typing.get(`u:${bo.id}`)).toEqual([bo.id]);

    boClient.stopTyping({ roomId: me.id });
    boClient.stopTyping({ groupId: g });
    await waitFor(() => expect(client.getState().typing.get(`g:${g}`)).toEqual([cy.id]));
    await boClient.stop();
    await waitFor(() => expect(client.getState().online.has(bo.id)).toBe(false));
    state = client.getState();
    expect(state.typing.has(`u:${bo.id}`)).toBe(false);
    expect(state.typing.get(`g:${g}`)).toEqual([cy.id]);
    const lastActive = state.lastActive.get(bo.id);
    expect(lastActive).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Chat keeps it on the conversation (its ephemeral hook).
    await waitFor(async () =>
      expect((await client.db.conversations.get(bo.id))?.lastActiveAt).toBe(lastActive),
    );

    // Cy closes the app mid-sentence: no stop frame ever comes, going offline ends the typing.
    await cyClient.stop();
    await waitFor(() => expect(client.getState().typing.has(`g:${g}`)).toBe(false));

    // Typing and presence heard on a lost connection are dropped.
    const boAgain = device(bo);
    await waitFor(() => expect(client.getState().online.has(bo.id)).toBe(true));
    boAgain.typing({ roomId: me.id });
    await waitFor(() => expect(client.getState().typing.get(`u:${bo.id}`)).toEqual([bo.id]));
    proxy.cutAll();
    await waitFor(() => client.getState().status !== 'online');
    expect(client.getState().typing.size).toBe(0);
    expect(client.getState().online.size).toBe(0);
  });

  it('sends typing frames only while connected', async () => {
    const me = await addStudent(server, 'Ana', 'Typing');
    const bo = await addStudent(server, 'Bo', 'Typing');
    const g = await groupOf(me, [bo]);
    const boClient = device(bo);
    const wire = recordingWire();
    const client = newDevice({ server, student: me, db: newDeviceDatabase(me), wire, timing: FAST });
    clients.push(client);
    client.typing({ roomId: bo.id }); // offline: dropped
    client.start();
    await waitFor(() => client.getState().status === 'online');
    client.typing({ groupId: g });
    client.stopTyping({ roomId: bo.id });
    await waitFor(() => expect(wire.sent.map((f) => f.type)).toContain('stop_typing'));
    expect(wire.sentOf('typing')).toEqual([{ type: 'typing', groupId: g }]);
    // The group's other member hears it.
    await waitFor(() => expect(boClient.getState().typing.get(`g:${g}`)).toEqual([me.id]));
  });
});
