import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  server = await startTestServer({ realtime: { onlineCountEveryMs: 50 } });
  ann = await createUser(server, 'Ann');
  bob = await createUser(server, 'Bob');
  stranger = await createUser(server, 'Sam');
  // Ann and Bob have talked: they are each other's contacts. Sam talks with nobody.
  const a = await WsClient.connect(server, ann);
  a.mutate({ type: 'send_message', id: randomUUID(), to: bob.id, content: 'hi' });
  await a.waitFor((f) => f.type === 'ack');
  a.close();
  await a.waitClose();
});
afterAll(() => server.close());

describe('presence', () => {
  it('tells contacts only: online list, user_online, user_offline; online count for all', async () => {
    const s = await WsClient.connect(server, stranger);
    const a = await WsClient.connect(server, ann);
    expect(a.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [] });
    expect(a.of('online_count')[0]).toEqual({ type: 'online_count', count: 2 });

    const b = await WsClient.connect(server, bob);
    expect(b.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [ann.id] });
    expect(await a.waitFor((f) => f.type === 'user_online')).toEqual({ type: 'user_online', userId: bob.id });
    // The count reaches everyone, throttled.
    await s.waitFor((f) => f.type === 'online_count' && f.count === 3);

    b.close();
    const offline = await a.waitFor((f) => f.type === 'user_offline');
    expect(offline).toMatchObject({ userId: bob.id });
    expect(typeof offline.lastActiveAt).toBe('string');
    await s.waitFor((f) => f.type === 'online_count' && f.count === 2);
    await WsClient.settle();
    expect(s.of('user_online')).toEqual([]);
    expect(s.of('user_offline')).toEqual([]);
    expect(s.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [] });

    // Sam is a stranger to Ann: opening a chat with her tells him nothing (realtime-presence-strangers).
    a.close();
    s.close();
  });

  it('drops a silent peer within deadPeerMs and answers ping frames', async () => {
    const quick = await startTestServer({ realtime: { heartbeatMs: 100, deadPeerMs: 300 } });
    try {
      const u = await createUser(quick, 'Zed');
      const c = await WsClient.connect(quick, u);
      c.send({ type: 'ping', t: 1 });
      await c.waitFor((f) => f.type === 'pong');
      // Stop answering the server's pings: pause reading from the socket.
      (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const started = Date.now();
      await new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (quick.deps.realtime.isOnline(u.id)) return;
          clearInterval(check);
          resolve();
        }, 20);
      });
      // Within deadPeerMs (300) of the last pong, plus a tick: the margin is for a loaded machine (1522 ms
      // once, on two busy cores), still far below the default 30 s.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await quick.close();
    }
  });
});
