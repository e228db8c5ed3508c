import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answer, endOf, frameOf, hangUp, logsOf, offer, reject } from './calls-helpers';
import { chatFlows, connecting, ending, friends, placeCall, rollCalls } from './handover-helpers';
import { isMatch, matched, queue, endOf as roomEndOf, setProfile } from './random-helpers';
import { requireRedis, testRedisConfig } from './support/redis';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { createUser, WsClient } from './support/ws-client';

/**
 * Issue 14, a coordinator handing over as it stops (SIGTERM: drain, then stop). Two nodes in one process
 * sharing one database and one Redis; node 1 starts first and coordinates the calls and random talk, node
 * 2's clients' frames go to it. When node 1 stops, node 2 takes the leases and carries on what node 1
 * held: calls live or ringing, rooms, the queue. Without Redis these tests fail, they are never skipped.
 */
const RING_MS = 3000;
const clock = testClock();
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

function startNode(redis: ReturnType<typeof testRedisConfig>, dataDir?: string) {
  return startTestServer({
    now: clock.now,
    config: {
      redis,
      callRingTimeoutMs: RING_MS,
      callReconnectGraceMs: 5000,
      randomReconnectGraceMs: 5000,
      randomCountFloor: 1,
      ...(dataDir ? { dataDir } : {}),
    },
    realtime: { ratePerSecond: 1000, rateBurst: 1000 },
  });
}

type StartNode = (redis: ReturnType<typeof testRedisConfig>, dataDir?: string) => Promise<TestServer>;

/** Node 1 coordinating, node 2 forwarding to it, on one database (on the test clock unless told). */
async function deployment(start1: StartNode = startNode, start2: StartNode = startNode) {
  const redis = testRedisConfig();
  const rolls = await rollCalls(redis.prefix);
  listeners.push(rolls);
  const node1 = await start1(redis);
  nodes.push(node1);
  await rolls.tookOver(node1);
  const node2 = await start2(redis, node1.dataDir);
  nodes.push(node2);
  /** Node 1 stops as on SIGTERM; resolves once node 2 coordinates. */
  const stop1 = async () => {
    await node1.drain(1000);
    await node1.stop();
    await rolls.tookOver(node2);
  };
  return { node1, node2, stop1 };
}

const connect = connecting(sockets);

/** A student who may use random talk, online on `node`. */
async function student(node: TestServer, name: string) {
  const user = await createUser(node, name);
  await setProfile(node, user.id, {});
  return { id: user.id, ws: await connect(node, user) };
}

describe('calls when the coordinating node stops', () => {
  it('a call answered on node 2 goes on under node 2: a hang-up reaches the other side, logged once for its length', async () => {
    const { node2, stop1 } = await deployment();
    const [ann, bob] = await friends(node2, 'Ann', 'Bob');
    const a = await connect(node2, ann);
    const b = await connect(node2, bob);
    const id = await placeCall(node2, [a, b], [ann, bob]);
    clock.advance(42_000);

    await stop1();
    hangUp(a, id, bob);
    expect(await b.waitFor(ending(id, 'ended'))).toMatchObject({ reason: 'ended' });
    await a.waitFor((f) => f.type === 'call_logged');
    await b.waitFor((f) => f.type === 'call_logged');
    await WsClient.settle(300);
    // Nothing but the hang-up ended it, and it is in both histories once, 42 s long.
    expect(a.frames.filter(endOf(id))).toEqual([]);
    expect(a.of('call_logged')).toHaveLength(1);
    expect(b.of('call_logged')).toHaveLength(1);
    for (const user of [ann, bob]) {
      const { logs } = await logsOf(node2, user);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ status: 'completed', duration: 42 });
    }
  });

  it('a ringing call rings on: it can be answered after the takeover, and another one times out at its deadline', async () => {
    const { node2, stop1 } = await deployment();
    const [cy, di] = await friends(node2, 'Cy', 'Di');
    const [ed, fay] = await friends(node2, 'Ed', 'Fay');
    const [c, d, e, f] = [
      await connect(node2, cy),
      await connect(node2, di),
      await connect(node2, ed),
      await connect(node2, fay),
    ];
    const answered = await placeCall(node2, [c, d], [cy, di], false);
    const unanswered = await placeCall(node2, [e, f], [ed, fay], false);
    const placedAt = Date.now();

    await stop1();
    answer(d, answered, cy);
    expect(await c.waitFor(frameOf('call:answer', answered))).toMatchObject({ from: di.id });
    // The ring timeout still fires, at the deadline node 1 set: to the caller and the callee.
    expect(await e.waitFor(endOf(unanswered), 0, RING_MS + 2000)).toMatchObject({ reason: 'no_answer' });
    expect(await f.waitFor(endOf(unanswered))).toMatchObject({ reason: 'no_answer' });
    expect(Date.now() - placedAt).toBeLessThan(RING_MS + 1000);
    await e.waitFor((frame) => frame.type === 'call_logged');
    await WsClient.settle(300);
    expect((await logsOf(node2, ed)).logs).toMatchObject([{ status: 'no_answer', duration: 0 }]);
    expect(c.frames.some(endOf(answered))).toBe(false);

    hangUp(d, answered, cy);
    expect(await c.waitFor(ending(answered, 'ended'))).toBeDefined();
    await c.waitFor((frame) => frame.type === 'call_logged');
    await WsClient.settle(200);
    expect((await logsOf(node2, cy)).logs).toMatchObject([{ status: 'completed' }]);
  });

  it('a party whose socket was on the stopping node comes back on node 2 with call:resume', async () => {
    const { node1, node2, stop1 } = await deployment();
    const [ann, bob] = await friends(node2, 'Gil', 'Hana');
    const a = await connect(node1, ann);
    const b = await connect(node2, bob);
    const id = await placeCall(node2, [a, b], [ann, bob]);

    await stop1();
    // The drain closed it with 1012: the client reconnects, to the node left.
    expect(a.closeCode).toBe(1012);
    const back = await connect(node2, ann);
    back.send({ type: 'call:resume', callId: id });
    expect(await back.waitFor(frameOf('call:resumed', id))).toEqual({ type: 'call:resumed', callId: id });
    expect(await back.waitFor(frameOf('call:answer', id))).toMatchObject({ from: bob.id });
    hangUp(b, id, ann);
    expect(await back.waitFor(endOf(id))).toMatchObject({ reason: 'ended' });
    await back.waitFor((f) => f.type === 'call_logged');
    await WsClient.settle(300);
    expect(b.frames.filter((f) => endOf(id)(f) && f.reason !== 'answered_elsewhere')).toEqual([]);
    expect((await logsOf(node2, bob)).logs).toMatchObject([{ status: 'completed' }]);
  });
  it('a call rejected while its caller was away is answered with the reject after the takeover, not rung again', async () => {
    const { node2, stop1 } = await deployment();
    const [ann, bob] = await friends(node2, 'Ike', 'Jen');
    const a = await connect(node2, ann);
    const b = await connect(node2, bob);
    const id = await placeCall(node2, [a, b], [ann, bob], false);
    // Ike's network drops while it rings; Jen rejects meanwhile; then the coordinator hands over.
    a.kill();
    await a.waitClose();
    await WsClient.settle(100);
    reject(b, id, ann);
    await WsClient.settle(200);
    await stop1();
    const rang = b.frames.filter(frameOf('call:offer', id)).length;
    // Back, Ike's device still waits for the call to be placed and sends its offer again.
    const back = await connect(node2, ann);
    offer(back, bob, 'audio', id, true);
    expect(await back.waitFor(frameOf('call:reject', id))).toEqual({
      type: 'call:reject',
      callId: id,
      from: bob.id,
    });
    await WsClient.settle(300);
    expect(b.frames.filter(frameOf('call:offer', id))).toHaveLength(rang);
  });
});

describe('random talk when the coordinating node stops', () => {
  it('a room goes on (chat flows both ways) and the queue keeps its waiting student', async () => {
    const { node2, stop1 } = await deployment();
    const { id: oneId, ws: one } = await student(node2, 'Ivy');
    const { id: twoId, ws: two } = await student(node2, 'Jo');
    const { roomId } = await matched(one, two, 'chat');
    const { id: waitingId, ws: waiting } = await student(node2, 'Kai');
    queue(waiting, 'chat');
    await waiting.waitFor((f) => f.type === 'random-queue');

    await stop1();
    await chatFlows(roomId, one, two);

    // The student who waited under node 1 is matched under node 2.
    const { id: lateId, ws: late } = await student(node2, 'Lee');
    queue(late, 'chat');
    const [m1, m2] = await Promise.all([waiting.waitFor(isMatch), late.waitFor(isMatch)]);
    expect(m1.roomId).toBe(m2.roomId);
    expect(waiting.frames.some((f) => f.type === 'random-refused')).toBe(false);
    expect([one, two].some((ws) => ws.frames.some(roomEndOf(roomId)))).toBe(false);
    // What the rooms carried across the handover names nobody (random-privacy.test.ts).
    const seen = (ws: WsClient) => JSON.stringify(ws.frames.filter((f) => f.type !== 'welcome'));
    for (const [ws, partner] of [
      [one, twoId],
      [two, oneId],
      [waiting, lateId],
      [late, waitingId],
    ] as const)
      expect(seen(ws)).not.toContain(partner);
  });
});

/**
 * Every node counts on the deployment's clock (Redis's TIME, lib/deployment-clock.ts). A grace deadline node
 * 1 stored in Redis must mean the same to node 2 when it takes over, though node 2's own clock runs 30 s fast
 * (its time sync broken): counted on that clock, the deadline would be long past at the takeover and the room
 * would end at once. These nodes run on real time, not the shared test clock.
 */
const GRACE_MS = 5000;
const SKEW_MS = 30_000;

function startRealTimeNode(
  redis: ReturnType<typeof testRedisConfig>,
  localNow?: () => number,
  dataDir?: string,
) {
  return startTestServer({
    ...(localNow ? { localNow } : {}),
    config: { redis, randomReconnectGraceMs: GRACE_MS, randomCountFloor: 1, ...(dataDir ? { dataDir } : {}) },
    realtime: { ratePerSecond: 1000, rateBurst: 1000 },
  });
}

describe('the deployment clock', () => {
  it('a node whose clock runs 30 s fast counts on Redis’s time: a grace deadline it takes over still holds', async () => {
    const { node2, stop1 } = await deployment(
      (redis) => startRealTimeNode(redis),
      (redis, dataDir) => startRealTimeNode(redis, () => Date.now() + SKEW_MS, dataDir),
    );
    expect(Math.abs(node2.deps.now() - Date.now())).toBeLessThan(1000);

    const ann = await createUser(node2, 'Ann');
    const bob = await createUser(node2, 'Bob');
    for (const user of [ann, bob]) await setProfile(node2, user.id, {});
    const annWs = await connect(node2, ann);
    const bobWs = await connect(node2, bob);
    const { roomId } = await matched(annWs, bobWs, 'chat');
    // Bob's connection drops: node 1 stores his side's grace deadline on its own (right) clock.
    bobWs.kill();
    await bobWs.waitClose();
    await WsClient.settle(200);

    await stop1();
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
