import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connecting, rollCalls } from './handover-helpers';
import { isMatch, queue, endOf as roomEndOf, setProfile } from './random-helpers';
import { requireRedis, testRedisConfig } from './support/redis';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient } from './support/ws-client';

/**
 * Issue 14: every node counts on the deployment's clock (Redis's TIME, lib/deployment-clock.ts). A grace
 * deadline node 1 stored in Redis must mean the same to node 2 when it takes over, though node 2's own
 * clock runs 30 s fast (its time sync broken): counted on that clock, the deadline would be long past at
 * the takeover and the room would end at once. Without Redis these tests fail, they are never skipped.
 */
const GRACE_MS = 5000;
const SKEW_MS = 30_000;
const nodes: TestServer[] = [];
const sockets: WsClient[] = [];
const listeners: { close(): void }[] = [];

beforeAll(() => requireRedis());
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.close();
  await WsClient.settle(100);
  for (const node of nodes.splice(0).reverse()) await node.close();
  for (const listener of listeners.splice(0)) listener.close();
});

function startNode(redis: ReturnType<typeof testRedisConfig>, localNow?: () => number, dataDir?: string) {
  return startTestServer({
    ...(localNow ? { localNow } : {}),
    config: { redis, randomReconnectGraceMs: GRACE_MS, randomCountFloor: 1, ...(dataDir ? { dataDir } : {}) },
    realtime: { ratePerSecond: 1000, rateBurst: 1000 },
  });
}

const connect = connecting(sockets);

describe('the deployment clock', () => {
  it('a node whose clock runs 30 s fast counts on Redis’s time: a grace deadline it takes over still holds', async () => {
    const redis = testRedisConfig();
    const rolls = await rollCalls(redis.prefix);
    listeners.push(rolls);
    const node1 = await startNode(redis);
    nodes.push(node1);
    await rolls.tookOver(node1);
    const node2 = await startNode(redis, () => Date.now() + SKEW_MS, node1.dataDir);
    nodes.push(node2);
    expect(Math.abs(node2.deps.now() - Date.now())).toBeLessThan(1000);

    const ann = await createUser(node2, 'Ann');
    const bob = await createUser(node2, 'Bob');
    for (const user of [ann, bob]) await setProfile(node2, user.id, {});
    const annWs = await connect(node2, ann);
    const bobWs = await connect(node2, bob);
    queue(annWs, 'chat');
    await annWs.waitFor((f) => f.type === 'random-queue');
    queue(bobWs, 'chat');
    const roomId = (await annWs.waitFor(isMatch)).roomId as string;
    await bobWs.waitFor(isMatch);
    // Bob's connection drops: node 1 stores his side's grace deadline on its own (right) clock.
    bobWs.kill();
    await bobWs.waitClose();
    await WsClient.settle(200);

    await node1.drain(1000);
    await node1.stop();
    await rolls.tookOver(node2);
    await WsClient.settle(300);
    // Within the grace Bob takes his side back under node 2, and the room goes on.
    const bobBack = await connect(node2, bob);
    bobBack.send({ type: 'random-resume', roomId, heard: 0 });
    expect(await bobBack.waitFor((f) => f.type === 'random-resumed' || roomEndOf(roomId)(f))).toMatchObject({
      type: 'random-resumed',
    });
    expect(annWs.frames.some(roomEndOf(roomId))).toBe(false);
  }, 30_000);
});
