import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/**
 * Issue 12, unfriending and the live connections: a friendship is what made two people contacts, so ending
 * it ends their presence and typing at once, without reconnecting, unless they still share a direct chat
 * with a message or a group (contacts by that, as at sign-in). redis-nodes.test.ts has it across nodes.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const typingFrom = (user: TestUser) => (f: Frame) => f.type === 'peer_typing' && f.fromUserId === user.id;
const offlineOf = (user: TestUser) => (f: Frame) => f.type === 'user_offline' && f.userId === user.id;

/** Friends through a request each way (the second accepts the first). */
async function befriend(one: TestUser, two: TestUser): Promise<void> {
  expect((await server.post('/api/users/friends/requests', { to: two.id }, one.token)).status).toBe(200);
  const crossed = await server.post('/api/users/friends/requests', { to: one.id }, two.token);
  expect(crossed.body).toMatchObject({ outcome: 'accepted' });
}
const unfriend = (user: TestUser, friend: TestUser) =>
  server.call('DELETE', `/api/users/friends/${friend.id}`, undefined, user.token);

/** What two friends may share besides the friendship: it keeps them contacts when it ends. */
const sharing: [string, (one: TestUser, two: TestUser) => Promise<void>][] = [
  [
    'a group',
    async (one, two) => {
      const other = await createUser(server, 'Cal');
      const body = { name: 'Lab', memberIds: [one.id, two.id] };
      expect((await server.post('/api/groups', body, other.token)).status).toBe(201);
    },
  ],
  [
    'a direct chat with a message',
    async (one, two) => {
      const ws = await WsClient.connect(server, one);
      const mid = ws.mutate({ type: 'send_message', id: randomUUID(), to: two.id, content: 'hi' });
      await ws.waitFor((f) => f.type === 'ack' && f.mid === mid);
      ws.close();
      await ws.waitClose();
    },
  ],
];

describe('unfriending and the live connections', () => {
  it('two friends who share nothing else stop hearing each other at once: no typing, no presence', async () => {
    const ann = await createUser(server, 'Ann');
    const bob = await createUser(server, 'Bob');
    await befriend(ann, bob);
    const annWs = await WsClient.connect(server, ann);
    const bobWs = await WsClient.connect(server, bob);
    bobWs.send({ type: 'typing', roomId: ann.id });
    await annWs.waitFor(typingFrom(bob));

    expect((await unfriend(ann, bob)).status).toBe(200);
    await bobWs.waitFor((f) => f.type === 'friendship_changed' && f.added === false);
    await WsClient.settle(50);
    const [annAt, bobAt] = [annWs.frames.length, bobWs.frames.length];
    bobWs.send({ type: 'typing', roomId: ann.id });
    annWs.send({ type: 'typing', roomId: bob.id });
    await WsClient.settle(150);
    // Neither going away is told to the other: Ann's, then Bob's (to Ann's new device).
    annWs.close();
    await annWs.waitClose();
    const ann2 = await WsClient.connect(server, ann);
    bobWs.close();
    await bobWs.waitClose();
    await WsClient.settle(150);
    expect(annWs.frames.slice(annAt).filter(typingFrom(bob))).toEqual([]);
    expect(bobWs.frames.slice(bobAt).filter(typingFrom(ann))).toEqual([]);
    expect(bobWs.frames.slice(bobAt).filter(offlineOf(ann))).toEqual([]);
    expect(ann2.frames.filter(offlineOf(bob))).toEqual([]);
    ann2.close();
  });

  it.each(sharing)('two friends who share %s still hear each other after unfriending', async (_, share) => {
    const dot = await createUser(server, 'Dot');
    const eve = await createUser(server, 'Eve');
    await befriend(dot, eve);
    await share(dot, eve);
    const dotWs = await WsClient.connect(server, dot);
    const eveWs = await WsClient.connect(server, eve);

    expect((await unfriend(dot, eve)).status).toBe(200);
    await eveWs.waitFor((f) => f.type === 'friendship_changed' && f.added === false);
    await WsClient.settle(50);
    const dotAt = dotWs.frames.length;
    eveWs.send({ type: 'typing', roomId: dot.id });
    await dotWs.waitFor(typingFrom(eve), dotAt);
    eveWs.close();
    await dotWs.waitFor(offlineOf(eve), dotAt);
    dotWs.close();
  });
});
