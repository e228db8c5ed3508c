import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CLOSE_CODES } from '@campus/protocol';
import { loadConfig } from '../src/config';
import { createSession } from '../src/lib/auth/sessions';
import { requireRedis, testRedisConfig } from './support/redis';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/**
 * Two nodes in one process sharing one SQLite file (one DATA_DIR) and one Redis, as two nodes behind a
 * load balancer would (DESIGN.md, "Beyond one machine"). CI runs Redis on 127.0.0.1:6379; without it these
 * tests fail, they are never skipped.
 */
// A prefix per run: runs sharing the Redis never hear each other.
const redis = testRedisConfig();

let nodeA: TestServer;
let nodeB: TestServer;
const open: WsClient[] = [];

async function connect(node: TestServer, user: TestUser) {
  const client = await WsClient.connect(node, user);
  open.push(client);
  return client;
}

const messageId = (f: Frame) => (f.message as { id: string } | undefined)?.id;
const received = (client: WsClient, id: string) =>
  client.waitFor((f) => f.type === 'receive_message' && messageId(f) === id);
const typingFrom = (user: TestUser) => (f: Frame) => f.type === 'peer_typing' && f.fromUserId === user.id;
const groupTypingFrom = (user: TestUser) => (f: Frame) =>
  f.type === 'group_member_typing' && f.fromUserId === user.id;
/** Opens the chat with `peer` and answers the online list it brings (a contact's presence, or nobody's). */
const onlineListOnOpening = async (client: WsClient, peer: TestUser) => {
  const from = client.frames.length;
  client.send({ type: 'join_chat', peerId: peer.id });
  return (await client.waitFor((f) => f.type === 'online_users_list', from)).userIds as string[];
};

beforeAll(async () => {
  await requireRedis();
  nodeA = await startTestServer({ config: { redis } });
  nodeB = await startTestServer({ config: { redis, dataDir: nodeA.dataDir } });
});
afterAll(async () => {
  for (const c of open) c.close();
  await nodeB?.close();
  await nodeA?.close();
});

describe('REDIS_URL configuration', () => {
  it('is off without REDIS_URL, and refuses a URL that is not redis://', () => {
    expect(loadConfig({}).redis).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: 'ct' }).redis).toMatchObject({
      url: 'redis://127.0.0.1:6379',
      prefix: 'ct',
    });
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
  });
});

describe('two nodes sharing one database and one Redis', () => {
  it('a direct message from a student on node A reaches a student on node B live, and the receipt comes back', async () => {
    const ann = await createUser(nodeA, 'Ann');
    const bob = await createUser(nodeA, 'Bob');
    const a = await connect(nodeA, ann);
    const b = await connect(nodeB, bob);
    const pulls = b.frames.filter((f) => f.type === 'changes').length;

    const id = randomUUID();
    const mid = a.mutate({ type: 'send_message', id, to: bob.id, content: 'across nodes' });
    const own = await received(a, id);
    const ack = await a.waitFor((f) => f.type === 'ack' && f.mid === mid);
    // The sender's node still delivers the commit before its ack.
    expect(a.frames.indexOf(own)).toBeLessThan(a.frames.indexOf(ack));

    const got = await received(b, id);
    expect(got.message).toMatchObject({ content: 'across nodes', from: { id: ann.id } });
    // Live: no pull answered it.
    expect(b.frames.filter((f) => f.type === 'changes').length).toBe(pulls);

    // Node B's delivery receipt is committed on B and reaches Ann on A.
    const delivered = await a.waitFor((f) => f.type === 'peer_read_messages' && f.status === 'delivered');
    expect(delivered).toMatchObject({ readerId: bob.id, messageIds: [id] });
  });

  it('typing on node A reaches the partner on node B', async () => {
    const cy = await createUser(nodeA, 'Cy');
    const di = await createUser(nodeA, 'Di');
    const c = await connect(nodeA, cy);
    const d = await connect(nodeB, di);
    // A first message makes them contacts (typing goes to a partner).
    const id = randomUUID();
    c.mutate({ type: 'send_message', id, to: di.id, content: 'hi' });
    await received(d, id);

    c.send({ type: 'typing', roomId: di.id });
    expect(await d.waitFor((f) => f.type === 'peer_typing')).toMatchObject({ type: 'peer_typing' });
    c.send({ type: 'stop_typing', roomId: di.id });
    await d.waitFor((f) => f.type === 'peer_stop_typing');
  });

  it('a logout on node A closes that session’s socket on node B, and only that session’s', async () => {
    const eve = await createUser(nodeA, 'Eve');
    const other = await createSession(nodeA.deps.db, eve.id, Date.now());
    const onB = await connect(nodeB, eve);
    const otherOnB = await connect(nodeB, { ...eve, token: other.token });

    expect((await nodeA.post('/api/auth/logout', {}, eve.token)).status).toBe(200);
    expect(await onB.waitClose(2000)).toBe(CLOSE_CODES.unauthorized);
    await WsClient.settle();
    expect(otherOnB.closeCode).toBeUndefined();
  });

  it("a node that missed the revocation's message still closes the session's socket, within its check", async () => {
    const una = await createUser(nodeA, 'Una');
    const other = await createSession(nodeA.deps.db, una.id, Date.now());
    // A node that checks its sockets' sessions every 300 ms, and hears nothing on the revoke channel (its
    // subscriber was reconnecting, or the publisher could not reach Redis: pub/sub is at most once).
    const nodeC = await startTestServer({
      config: { redis: { ...redis, revocationCheckMs: 300 }, dataDir: nodeA.dataDir },
    });
    try {
      await nodeC.redis!.subscriber.unsubscribe(`${redis.prefix}:revoke`);
      const onC = await connect(nodeC, una);
      const otherOnC = await connect(nodeC, { ...una, token: other.token });
      expect((await nodeA.post('/api/auth/logout', {}, una.token)).status).toBe(200);
      expect(await onC.waitClose(3000)).toBe(CLOSE_CODES.unauthorized);
      await WsClient.settle();
      expect(otherOnC.closeCode).toBeUndefined();
    } finally {
      await nodeC.stop();
    }
  });

  it('a client on node B whose cursor came live from node A pulls from it (no reset)', async () => {
    const jo = await createUser(nodeA, 'Jo');
    const kim = await createUser(nodeA, 'Kim');
    const onA = await connect(nodeA, jo);
    const onB = await connect(nodeB, jo);
    // Nobody is connected for Kim: no receipt is committed on B, so B itself commits nothing after this.
    const id = randomUUID();
    onA.mutate({ type: 'send_message', id, to: kim.id, content: 'seen on B' });
    const seen = await received(onB, id);

    // A second device of Jo's on B (the first stays: Jo going offline would commit a last-active time).
    const again = await connect(nodeB, jo);
    const answer = await again.pull(seen.seq as number);
    expect(answer.type).toBe('changes');
    expect(answer).toMatchObject({ hasMore: false });
  });

  it('changes whose Redis message node B missed are read from the change log, in seq order', async () => {
    const fay = await createUser(nodeA, 'Fay');
    const gus = await createUser(nodeA, 'Gus');
    const f = await connect(nodeA, fay);
    const g = await connect(nodeB, gus);
    const channel = `${redis.prefix}:changes`;
    const sub = nodeB.redis!.subscriber;

    // Node B stops hearing the changes channel: these two commits' messages never reach it.
    await sub.unsubscribe(channel);
    const missed: string[] = [randomUUID(), randomUUID()];
    for (const id of missed) {
      const mid = f.mutate({ type: 'send_message', id, to: gus.id, content: `missed ${id}` });
      await f.waitFor((fr) => fr.type === 'ack' && fr.mid === mid);
    }
    await WsClient.settle(200);
    expect(g.frames.some((fr) => missed.includes(messageId(fr) ?? ''))).toBe(false);

    // Back on the channel: the next message shows the gap, which B fills from the log before it.
    await sub.subscribe(channel);
    const next = randomUUID();
    f.mutate({ type: 'send_message', id: next, to: gus.id, content: 'next' });
    await received(g, next);
    const got = g.frames.filter((fr) => fr.type === 'receive_message');
    expect(got.map(messageId)).toEqual([...missed, next]);
    const seqs = g.frames.filter((fr) => typeof fr.seq === 'number').map((fr) => fr.seq as number);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('after a reconnect to Redis, node B reads what it missed from the change log', async () => {
    // Two nodes of their own: any commit on B (an earlier test's client still finishing its work) reads the
    // log's newer entries and would deliver the message before the reconnect, proving nothing (flaked so).
    const own = testRedisConfig();
    const quietA = await startTestServer({ config: { redis: own } });
    const quietB = await startTestServer({ config: { redis: own, dataDir: quietA.dataDir } });
    onTestFinished(async () => {
      await quietB.close();
      await quietA.close();
    });
    const hal = await createUser(quietA, 'Hal');
    const ivy = await createUser(quietA, 'Ivy');
    const h = await connect(quietA, hal);
    const i = await connect(quietB, ivy);
    const channel = `${own.prefix}:changes`;
    const sub = quietB.redis!.subscriber;

    // Off the channel (so the resubscribe after the reconnect leaves it off): only the reconnect's gap
    // check can bring this message to B (the periodic check runs once a minute here).
    await sub.unsubscribe(channel);
    const id = randomUUID();
    const mid = h.mutate({ type: 'send_message', id, to: ivy.id, content: 'while away' });
    await h.waitFor((fr) => fr.type === 'ack' && fr.mid === mid);
    await WsClient.settle(200);
    expect(i.frames.some((fr) => messageId(fr) === id)).toBe(false);

    sub.disconnect(true);
    await received(i, id);
    await sub.subscribe(channel);
  });
});

describe('who counts as a contact, across nodes', () => {
  it("a block made on node A reaches the blocked user's connection on node B: no typing or presence, until the unblock", async () => {
    const [ann, bob, cal] = [
      await createUser(nodeA, 'Ann'),
      await createUser(nodeA, 'Bob'),
      await createUser(nodeA, 'Cal'),
    ];
    const annA = await connect(nodeA, ann);
    const bobB = await connect(nodeB, bob);
    // Contacts by a message, and members of Cal's group.
    const id = randomUUID();
    annA.mutate({ type: 'send_message', id, to: bob.id, content: 'hi' });
    await received(bobB, id);
    const made = await nodeA.post('/api/groups', { name: 'Lab', memberIds: [ann.id, bob.id] }, cal.token);
    expect(made.status).toBe(201);
    const groupId = made.body.id as string;
    await bobB.waitFor((f) => f.type === 'group_joined');
    await annA.waitFor((f) => f.type === 'group_joined');
    bobB.send({ type: 'typing', roomId: ann.id });
    await annA.waitFor(typingFrom(bob));

    expect((await nodeA.post('/api/users/blocks', { userId: bob.id }, ann.token)).status).toBe(200);
    // What reaches a node from Redis is checked: a reunite without its `contacts` is dropped, not applied.
    const forged = JSON.stringify({ k: 'reunite', a: ann.id, b: bob.id });
    await nodeA.redis!.client.publish(`${redis.prefix}:ephemeral`, `elsewhere\ncontacts\n${forged}`);
    await WsClient.settle(300);
    const [annAt, bobAt] = [annA.frames.length, bobB.frames.length];
    bobB.send({ type: 'typing', roomId: ann.id });
    annA.send({ type: 'typing', groupId });
    expect(await onlineListOnOpening(bobB, ann)).toEqual([]);
    await WsClient.settle(200);
    expect(annA.frames.slice(annAt).filter(typingFrom(bob))).toEqual([]);
    expect(bobB.frames.slice(bobAt).filter(groupTypingFrom(ann))).toEqual([]);

    // Lifted on node A: on node B Bob hears Ann again without reconnecting.
    const back = bobB.frames.length;
    expect((await nodeA.call('DELETE', `/api/users/blocks/${bob.id}`, undefined, ann.token)).status).toBe(
      200,
    );
    await bobB.waitFor((f) => f.type === 'user_online' && f.userId === ann.id, back);
    bobB.send({ type: 'typing', roomId: ann.id });
    await annA.waitFor(typingFrom(bob), annAt);
    annA.send({ type: 'typing', groupId });
    await bobB.waitFor(groupTypingFrom(ann), back);
    expect(await onlineListOnOpening(bobB, ann)).toEqual([ann.id]);
  });

  it("an unfriend made on node A reaches the former friend's connection on node B: no typing or presence", async () => {
    const [dan, eli] = [await createUser(nodeA, 'Dan'), await createUser(nodeA, 'Eli')];
    // A request each way: the second accepts the first.
    expect((await nodeA.post('/api/users/friends/requests', { to: eli.id }, dan.token)).status).toBe(200);
    const crossed = await nodeA.post('/api/users/friends/requests', { to: dan.id }, eli.token);
    expect(crossed.body).toMatchObject({ outcome: 'accepted' });
    const danA = await connect(nodeA, dan);
    const eliB = await connect(nodeB, eli);
    eliB.send({ type: 'typing', roomId: dan.id });
    await danA.waitFor(typingFrom(eli));

    expect((await nodeA.call('DELETE', `/api/users/friends/${eli.id}`, undefined, dan.token)).status).toBe(
      200,
    );
    await WsClient.settle(300);
    const danAt = danA.frames.length;
    eliB.send({ type: 'typing', roomId: dan.id });
    expect(await onlineListOnOpening(eliB, dan)).toEqual([]);
    eliB.close();
    await eliB.waitClose();
    await WsClient.settle(300);
    expect(danA.frames.slice(danAt).filter(typingFrom(eli))).toEqual([]);
    expect(danA.frames.slice(danAt).filter((f) => f.type === 'user_offline')).toEqual([]);
  });
});
