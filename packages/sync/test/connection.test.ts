import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, REALTIME_TIMING } from '@campus/protocol';
import { reconnectDelay, type EphemeralState, type SyncClient } from '../src';
import { FakeServer, waitFor } from './support/fake-server';
import { BO, CY, ME, fakeNetwork, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

describe('reconnect backoff', () => {
  it('stays within 1–5 s with jitter, growing with failed attempts', () => {
    const delays = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      for (const r of [0, 0.25, 0.5, 0.75, 0.999]) {
        const d = reconnectDelay(attempt, REALTIME_TIMING, () => r);
        expect(d).toBeGreaterThanOrEqual(1000);
        expect(d).toBeLessThanOrEqual(5000);
        delays.push(d);
      }
    }
    expect(reconnectDelay(0, REALTIME_TIMING, () => 0.999)).toBeLessThanOrEqual(1500);
    expect(reconnectDelay(6, REALTIME_TIMING, () => 0)).toBeGreaterThanOrEqual(2500);
    // Jitter: the same attempt does not always wait the same time.
    expect(new Set([0.1, 0.9].map((r) => reconnectDelay(2, REALTIME_TIMING, () => r))).size).toBe(2);
  });
});

describe('connection', () => {
  it('says hello with the token first, reports its status, and reconnects after a cut', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    const seen: EphemeralState['status'][] = [];
    client.subscribe(() => seen.push(client!.getState().status));
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    expect(server.received[0]).toMatchObject({ type: 'hello', v: PROTOCOL_VERSION, token: server.token });
    server.cutAll();
    await waitFor(() => expect(server.sockets).toHaveLength(2));
    await waitFor(() => client!.getState().status === 'online');
    expect(seen).toEqual(['connecting', 'online', 'offline', 'connecting', 'online']);
  });

  it('drops the link when the device goes offline, queues writes, and reconnects as soon as it is back', async () => {
    const server = new FakeServer(ME);
    const network = fakeNetwork();
    client = makeClient(server, undefined, {}, network.signal);
    client.start();
    await waitFor(() => client!.getState().status === 'online');

    network.set(false);
    expect(client.getState().status).toBe('offline');
    await client.sendDirectMessage(BO, 'written offline');
    // No reconnect attempts while the device says it is offline, however long it lasts.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.sockets).toHaveLength(1);
    expect(server.framesOfType('send_message')).toHaveLength(0);
    expect(await client.db.outbox.count()).toBe(1);

    network.set(true);
    await waitFor(() => client!.getState().status === 'online');
    await waitFor(() => expect(server.framesOfType('send_message')).toHaveLength(1));
    expect(server.sockets).toHaveLength(2);
  });

  it('gives up on an attempt that gets no welcome in time, and on a silent peer', async () => {
    const server = new FakeServer(ME);
    server.silent = true;
    client = makeClient(server, undefined, { connectTimeoutMs: 100, heartbeatMs: 50, deadPeerMs: 200 });
    client.start();
    await waitFor(() => expect(server.sockets.length).toBeGreaterThanOrEqual(2));
    expect(client.getState().status).not.toBe('online');
    server.silent = false;
    await waitFor(() => client!.getState().status === 'online');
    const before = server.sockets.length;
    server.silent = true; // pings go unanswered from now on
    await waitFor(() => expect(server.sockets.length).toBeGreaterThan(before));
    expect(server.framesOfType('ping').length).toBeGreaterThan(0);
  });

  it('stops reconnecting when the server refuses the session (4401)', async () => {
    const server = new FakeServer(ME);
    server.closeOnHello = 4401;
    client = makeClient(server);
    client.start();
    await waitFor(() => expect(server.received).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 150));
    expect(server.sockets).toHaveLength(1);
    expect(client.getState().status).toBe('offline');
    expect(client.getState().refusedCode).toBe(4401);
  });
});

describe('ephemeral state', () => {
  it('tracks presence, the online count and who is typing, with a new object only on change', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    const socket = server.live[0]!;
    const before = client.getState();
    expect(client.getState()).toBe(before);

    socket.deliver({ type: 'online_users_list', userIds: [BO.id] });
    socket.deliver({ type: 'online_count', count: 12 });
    socket.deliver({ type: 'peer_typing', fromUserId: BO.id });
    socket.deliver({ type: 'group_member_typing', fromUserId: BO.id, groupId: 'g1' });
    socket.deliver({ type: 'group_member_typing', fromUserId: CY.id, groupId: 'g1' });
    socket.deliver({ type: 'user_online', userId: CY.id });
    await waitFor(() => expect(client!.getState().typing.get('g:g1')).toEqual([BO.id, CY.id]));
    let state = client.getState();
    expect(state).not.toBe(before);
    expect([...state.online].sort()).toEqual([BO.id, CY.id].sort());
    expect(state.onlineCount).toBe(12);
    expect(state.typing.get(`u:${BO.id}`)).toEqual([BO.id]);

    socket.deliver({ type: 'peer_stop_typing', fromUserId: BO.id });
    socket.deliver({ type: 'group_member_stop_typing', fromUserId: BO.id, groupId: 'g1' });
    socket.deliver({ type: 'user_offline', userId: BO.id, lastActiveAt: '2026-11-23T08:00:00.000Z' });
    await waitFor(() => expect(client!.getState().online.has(BO.id)).toBe(false));
    state = client.getState();
    expect(state.typing.has(`u:${BO.id}`)).toBe(false);
    expect(state.typing.get('g:g1')).toEqual([CY.id]);
    expect(state.lastActive.get(BO.id)).toBe('2026-11-23T08:00:00.000Z');

    // Cy closes the app mid-sentence: no stop frame ever comes, going offline ends the typing.
    socket.deliver({ type: 'user_offline', userId: CY.id, lastActiveAt: null });
    await waitFor(() => expect(client!.getState().typing.has('g:g1')).toBe(false));

    // Typing and presence heard on a lost connection are dropped.
    server.cutAll();
    await waitFor(() => client!.getState().status !== 'online');
    expect(client.getState().typing.size).toBe(0);
  });

  it('sends typing frames only while connected', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.typing({ roomId: BO.id }); // offline: dropped
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    client.typing({ groupId: 'g1' });
    client.stopTyping({ roomId: BO.id });
    await waitFor(() => expect(server.received.map((f) => f.type)).toContain('stop_typing'));
    expect(server.framesOfType('typing')).toEqual([{ type: 'typing', groupId: 'g1' }]);
  });
});
