import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RedisConfig } from '../src/config';
import type { RealtimeOptions } from '../src/realtime/options';
import { requireRedis, testRedisConfig } from './support/redis';
import { rowOf } from './support/sql';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';
import { until } from './support/until';

/**
 * Presence across nodes (issue 14): two nodes in one process sharing one SQLite file and one Redis, as in
 * redis-nodes.test.ts. Who is online, first and last connections and the online count are the whole
 * deployment's. Without Redis these tests fail, they are never skipped.
 */
// A prefix per run: runs sharing the Redis never hear each other, nor count each other's users.
const redis = testRedisConfig();
// The nodes that stay have a long lease: a stall of this busy machine must not get them reaped mid-test.
const realtime: Partial<RealtimeOptions> = { onlineCountEveryMs: 50, presenceLeaseMs: 20_000 };
// The node that dies has a short one (a lease is each node's own), so it stops counting within the test.
const leaseMs = 1500;

let nodeA: TestServer;
let nodeB: TestServer;
let open: WsClient[] = [];

async function connect(node: TestServer, user: TestUser) {
  const client = await WsClient.connect(node, user);
  open.push(client);
  return client;
}

/** Two users who have talked: each is the other's contact (presence goes to contacts only). */
async function contacts(name1: string, name2: string): Promise<[TestUser, TestUser]> {
  const one = await createUser(nodeA, name1);
  const two = await createUser(nodeA, name2);
  const c = await WsClient.connect(nodeA, one);
  c.mutate({ type: 'send_message', id: randomUUID(), to: two.id, content: 'hi' });
  await c.waitFor((f) => f.type === 'ack');
  c.close();
  await c.waitClose();
  await WsClient.settle(200);
  return [one, two];
}

const aboutUser = (type: string, userId: string) => (f: Frame) => f.type === type && f.userId === userId;
const framesAbout = (client: WsClient, type: string, userId: string) =>
  client.frames.filter(aboutUser(type, userId));
const onlineList = async (client: WsClient) =>
  (await client.waitFor((f) => f.type === 'online_users_list')).userIds as string[];
const lastActiveAt = async (userId: string) =>
  (
    await rowOf<{ last_active_at: string | null }>(
      nodeA,
      'SELECT last_active_at FROM users WHERE id = ?',
      userId,
    )
  )?.last_active_at;

beforeAll(async () => {
  await requireRedis();
  nodeA = await startTestServer({ config: { redis }, realtime });
  nodeB = await startTestServer({ config: { redis, dataDir: nodeA.dataDir }, realtime });
});
// Each test starts with nobody online, so the counts it reads are its own.
afterEach(async () => {
  for (const c of open) c.close();
  await Promise.all(open.map((c) => c.waitClose()));
  open = [];
  await WsClient.settle(200);
});
afterAll(async () => {
  await nodeB?.close();
  await nodeA?.close();
});

describe('presence across two nodes sharing one Redis', () => {
  it('a user on both nodes who closes one socket is not announced offline; contacts still see them online', async () => {
    const [ann, bob] = await contacts('Ann', 'Bob');
    const annA = await connect(nodeA, ann);
    await connect(nodeB, ann);
    const bobA = await connect(nodeA, bob);
    expect(await onlineList(bobA)).toEqual([ann.id]);
    const before = await lastActiveAt(ann.id);

    annA.close();
    await annA.waitClose();
    await WsClient.settle(300);
    expect(framesAbout(bobA, 'user_offline', ann.id)).toEqual([]);
    // Her last connection in the deployment did not close: no last-active time is stored.
    expect(await lastActiveAt(ann.id)).toBe(before);
    expect(await nodeA.deps.realtime.isOnlineAnywhere(ann.id)).toBe(true);
    // Bob's second device, on the node Ann just left, sees her online.
    const bobA2 = await connect(nodeA, bob);
    expect(await onlineList(bobA2)).toEqual([ann.id]);
  });

  it('the first connection anywhere is announced once, and closing the last one anywhere announces offline once', async () => {
    const [cy, di] = await contacts('Cy', 'Di');
    const diB = await connect(nodeB, di);
    const before = await lastActiveAt(cy.id);

    const cyA = await connect(nodeA, cy);
    // Di is on the other node: she hears it all the same.
    await diB.waitFor(aboutUser('user_online', cy.id));
    const cyB = await connect(nodeB, cy);
    await WsClient.settle(300);
    expect(framesAbout(diB, 'user_online', cy.id)).toHaveLength(1);

    cyB.close();
    await cyB.waitClose();
    await WsClient.settle(300);
    expect(framesAbout(diB, 'user_offline', cy.id)).toEqual([]);
    expect(await lastActiveAt(cy.id)).toBe(before);

    cyA.close();
    const offline = await diB.waitFor(aboutUser('user_offline', cy.id));
    await WsClient.settle(300);
    expect(framesAbout(diB, 'user_offline', cy.id)).toHaveLength(1);
    // Stored before the contacts heard it.
    expect(await lastActiveAt(cy.id)).toBe(offline.lastActiveAt);
    expect(await nodeB.deps.realtime.isOnlineAnywhere(cy.id)).toBe(false);
  });

  it('a contact connecting on the other node gets the user in online_users_list', async () => {
    const [eve, fay] = await contacts('Eve', 'Fay');
    await connect(nodeA, eve);
    const fayB = await connect(nodeB, fay);
    expect(await onlineList(fayB)).toEqual([eve.id]);
    expect(await nodeB.deps.realtime.isOnlineAnywhere(eve.id)).toBe(true);
    expect(await nodeB.deps.realtime.onlineAmongAnywhere([fay.id, eve.id, randomUUID()])).toEqual([
      fay.id,
      eve.id,
    ]);
  });

  it('the friends list asked on node A shows a friend connected only on node B online', async () => {
    const mo = await createUser(nodeA, 'Mo');
    const ned = await createUser(nodeA, 'Ned');
    // A request each way: the second accepts the first.
    await nodeA.post('/api/users/friends/requests', { to: ned.id }, mo.token);
    await nodeA.post('/api/users/friends/requests', { to: mo.id }, ned.token);
    const friendsOfMo = async () => (await nodeA.get('/api/users/friends', mo.token)).body;
    expect(await friendsOfMo()).toEqual([expect.objectContaining({ id: ned.id, online: false })]);

    await connect(nodeB, ned);
    expect(await friendsOfMo()).toEqual([expect.objectContaining({ id: ned.id, online: true })]);
  });

  it('online_count counts distinct users on every node', async () => {
    const gus = await createUser(nodeA, 'Gus');
    const hal = await createUser(nodeA, 'Hal');
    const gusA = await connect(nodeA, gus);
    const base = (await gusA.waitFor((f) => f.type === 'online_count')).count as number;

    // A node hears of the other node's first connections through Redis, so a count sent at hello may not
    // have the newest user on the other node yet (it failed that way once on a busy CI machine): each
    // connection must reach the exact deployment-wide figure, and none may ever be told more.
    const counted = (count: number) => (f: { type: string; count?: unknown }) =>
      f.type === 'online_count' && f.count === count;
    const halB = await connect(nodeB, hal);
    await halB.waitFor(counted(base + 1));
    // The count reaches node A's connections too, throttled.
    await gusA.waitFor(counted(base + 1));
    // A second device of Gus on node B is no second user.
    const gusB = await connect(nodeB, gus);
    await gusB.waitFor(counted(base + 1));
    expect(await nodeA.deps.realtime.onlineCountAnywhere()).toBe(base + 1);
    expect(await nodeB.deps.realtime.onlineCountAnywhere()).toBe(base + 1);
    await WsClient.settle(300);
    for (const client of [gusA, halB, gusB])
      for (const frame of client.frames)
        if (frame.type === 'online_count') expect(frame.count).toBeLessThanOrEqual(base + 1);
  });

  it('a node that dies without cleanup stops counting its users within the lease', async () => {
    const ivy = await createUser(nodeA, 'Ivy');
    const jo = await createUser(nodeA, 'Jo');
    const joA = await connect(nodeA, jo);
    const base = (await joA.waitFor((f) => f.type === 'online_count')).count as number;
    // A third node on the same database and Redis. Stopped with stop(), not close(): the folder is node A's.
    const nodeC = await startTestServer({
      config: { redis, dataDir: nodeA.dataDir },
      realtime: { ...realtime, presenceLeaseMs: leaseMs },
    });
    try {
      const ivyC = await WsClient.connect(nodeC, ivy);
      await joA.waitFor((f) => f.type === 'online_count' && f.count === base + 1);
      expect(await nodeA.deps.realtime.isOnlineAnywhere(ivy.id)).toBe(true);

      // Node C loses Redis for good, as a crashed node would: no heartbeat, no cleanup.
      nodeC.redis!.client.disconnect();
      nodeC.redis!.subscriber.disconnect();
      const died = Date.now();
      const from = joA.frames.length;
      await until(
        async () => (await nodeA.deps.realtime.onlineCountAnywhere()) === base,
        'reap',
        3 * leaseMs,
        20,
      );
      // Within the lease (its last renewal came before the loss), give or take this busy machine's delays.
      expect(Date.now() - died).toBeLessThanOrEqual(leaseMs + 750);
      expect(await nodeB.deps.realtime.isOnlineAnywhere(ivy.id)).toBe(false);
      // The live nodes hear of it and tell their connections.
      await joA.waitFor((f) => f.type === 'online_count' && f.count === base, from, 2 * leaseMs);
      ivyC.close();
    } finally {
      await nodeC.stop();
    }
  });

  it("a dead node's users are announced offline to their contacts, and back online if the node returns", async () => {
    const [ivy, jo] = await contacts('Ivy', 'Jo');
    const joA = await connect(nodeA, jo);
    const nodeC = await startTestServer({
      config: { redis, dataDir: nodeA.dataDir },
      realtime: { ...realtime, presenceLeaseMs: leaseMs },
    });
    try {
      const ivyC = await WsClient.connect(nodeC, ivy);
      await joA.waitFor(aboutUser('user_online', ivy.id));
      const before = await lastActiveAt(ivy.id);

      // Node C stalls past its lease with no word to anyone (its Redis cut, as a crash would leave it):
      // no connection of Ivy's says goodbye, yet her contact hears it once the lease runs out.
      nodeC.redis!.client.disconnect();
      nodeC.redis!.subscriber.disconnect();
      // Any node's next script reaps it (the live nodes' own heartbeats are 20 s apart here: ask sooner).
      await until(async () => !(await nodeB.deps.realtime.isOnlineAnywhere(ivy.id)), 'reap', 4 * leaseMs, 20);
      const offline = await joA.waitFor(aboutUser('user_offline', ivy.id));
      expect(offline.lastActiveAt).toEqual(expect.any(String));
      expect(await lastActiveAt(ivy.id)).toBe(offline.lastActiveAt);
      expect(offline.lastActiveAt).not.toBe(before);

      // The node comes back with Ivy still connected there: Redis holds her again and Jo hears it.
      const from = joA.frames.length;
      await nodeC.redis!.client.connect();
      await nodeC.redis!.subscriber.connect();
      await joA.waitFor(aboutUser('user_online', ivy.id), from, 4 * leaseMs);
      expect(await nodeA.deps.realtime.isOnlineAnywhere(ivy.id)).toBe(true);
      ivyC.close();
      await joA.waitFor(aboutUser('user_offline', ivy.id), from);
    } finally {
      await nodeC.stop();
    }
  });

  it('with Redis gone, a node answers presence from its own connections and every connection still works', async () => {
    const [kay, lee] = await contacts('Kay', 'Lee');
    // A node of its own deployment (prefix), so the others' counts are not its concern.
    const alone: RedisConfig = { ...redis, prefix: `${redis.prefix}-alone` };
    const nodeD = await startTestServer({ config: { redis: alone, dataDir: nodeA.dataDir }, realtime });
    try {
      nodeD.redis!.client.disconnect();
      nodeD.redis!.subscriber.disconnect();
      const kayD = await connect(nodeD, kay);
      expect(await onlineList(kayD)).toEqual([]);
      expect((await kayD.waitFor((f) => f.type === 'online_count')).count).toBe(1);
      const leeD = await connect(nodeD, lee);
      expect(await onlineList(leeD)).toEqual([kay.id]);
      await kayD.waitFor(aboutUser('user_online', lee.id));
      expect(await nodeD.deps.realtime.isOnlineAnywhere(lee.id)).toBe(true);
      leeD.close();
      await kayD.waitFor(aboutUser('user_offline', lee.id));
      await kayD.waitFor((f) => f.type === 'online_count' && f.count === 1, 2);
    } finally {
      await nodeD.stop();
    }
  });
});
