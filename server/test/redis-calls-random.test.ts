import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RedisConfig } from '../src/config';
import { answer, befriend, endOf, frameOf, hangUp, logsOf, offer, sdp } from './calls-helpers';
import { endOf as roomEndOf, isMatch, matched, queue, setProfile } from './random-helpers';
import { ending, placeCall, rollCalls, seenOnline } from './handover-helpers';
import { until } from './support/until';
import { requireRedis, testRedisConfig } from './support/redis';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

/**
 * Calls and random talk across nodes (issue 14): two nodes in one process sharing one SQLite file and one
 * Redis, as in redis-nodes.test.ts. Call state and random talk's queues and rooms are one for the whole
 * deployment (one node coordinates them at a time). Without Redis these tests fail, they are never skipped.
 */
let nodeA: TestServer;
let nodeB: TestServer;
let open: WsClient[] = [];

/** A node of a deployment: short ring and grace, no engine bucket in the way. */
function startNode(redis: RedisConfig, dataDir?: string, presenceLeaseMs?: number) {
  return startTestServer({
    config: {
      redis,
      callRingTimeoutMs: 3000,
      callReconnectGraceMs: 1000,
      randomReconnectGraceMs: 1000,
      randomCountFloor: 1,
      ...(dataDir ? { dataDir } : {}),
    },
    realtime: { ratePerSecond: 1000, rateBurst: 1000, ...(presenceLeaseMs ? { presenceLeaseMs } : {}) },
  });
}

async function connect(node: TestServer, user: TestUser) {
  const client = await WsClient.connect(node, user);
  open.push(client);
  return client;
}

/** A student who may use random talk (verified, profile complete), online on one device of `node`. */
async function student(node: TestServer, name: string) {
  const user = await createUser(node, name);
  await setProfile(node, user.id, {});
  return connect(node, user);
}

const matchesOf = (ws: WsClient) => ws.frames.filter(isMatch);
const queued = (ws: WsClient, from = 0) => ws.waitFor((f) => f.type === 'random-queue', from);

beforeAll(async () => {
  await requireRedis();
  const redis = testRedisConfig();
  nodeA = await startNode(redis);
  nodeB = await startNode(redis, nodeA.dataDir);
});
afterEach(async () => {
  for (const c of open) c.close();
  open = [];
  // The nodes hear the closes: no wait or call outlives its test.
  await WsClient.settle(200);
});
afterAll(async () => {
  await nodeB?.close();
  await nodeA?.close();
});

describe('calls across two nodes', () => {
  it('a call from node A to a friend on node B rings, is answered, signals both ways, and is logged once', async () => {
    const ann = await createUser(nodeA, 'Ann');
    const bob = await createUser(nodeA, 'Bob');
    await befriend(nodeA, ann, bob);
    const a = await connect(nodeA, ann);
    const b = await connect(nodeB, bob);
    // Presence reaches the deployment through Redis: a callee not yet seen online anywhere would not ring.
    await seenOnline(nodeA, bob);

    const offered = sdp('offer');
    const callId = randomUUID();
    a.send({ type: 'call:offer', callId, to: bob.id, callType: 'video', signal: offered });
    const incoming = await b.waitFor(frameOf('call:offer', callId));
    // The caller's description reaches the callee on the other node as sent.
    expect(incoming).toMatchObject({ from: { id: ann.id }, callType: 'video', signal: offered });
    await a.waitFor(frameOf('call:ringing', callId));

    const answered = sdp('answer');
    b.send({ type: 'call:answer', callId, to: ann.id, signal: answered });
    // …and the callee's answer reaches the caller.
    expect(await a.waitFor(frameOf('call:answer', callId))).toMatchObject({ from: bob.id, signal: answered });
    // Every device of the callee hears it was answered (the answering one ignores it).
    await b.waitFor((f) => f.type === 'call:end' && f.callId === callId && f.reason === 'answered_elsewhere');

    hangUp(a, callId, bob);
    expect(await b.waitFor((f) => endOf(callId)(f) && f.reason === 'ended')).toMatchObject({
      reason: 'ended',
    });
    await a.waitFor((f) => f.type === 'call_logged');
    await b.waitFor((f) => f.type === 'call_logged');
    await WsClient.settle(300);
    // Logged once, on both sides.
    expect(a.of('call_logged')).toHaveLength(1);
    expect(b.of('call_logged')).toHaveLength(1);
    const [annLogs, bobLogs] = [await logsOf(nodeA, ann), await logsOf(nodeB, bob)];
    expect(annLogs.logs).toHaveLength(1);
    expect(bobLogs.logs).toHaveLength(1);
    expect(annLogs.logs[0]).toMatchObject({ status: 'completed', callType: 'video' });
  });

  it('a callee in a call through node A is busy to a caller on node B', async () => {
    const cy = await createUser(nodeA, 'Cy');
    const di = await createUser(nodeA, 'Di');
    const ed = await createUser(nodeA, 'Ed');
    await befriend(nodeA, cy, di);
    await befriend(nodeA, ed, di);
    const c = await connect(nodeA, cy);
    const d = await connect(nodeA, di);
    const e = await connect(nodeB, ed);
    await seenOnline(nodeA, di, ed);

    const first = offer(c, di);
    await d.waitFor(frameOf('call:offer', first));
    answer(d, first, cy);
    await c.waitFor(frameOf('call:answer', first));

    const second = offer(e, di);
    expect(await e.waitFor(endOf(second))).toMatchObject({ reason: 'busy' });
    await WsClient.settle(300);
    // Di never rang for the second call, and the first goes on.
    expect(d.frames.some((f) => f.callId === second)).toBe(false);
    expect(c.frames.some((f) => endOf(first)(f))).toBe(false);
    hangUp(c, first, di);
    await d.waitFor(endOf(first));
  });
  it('two devices of the callee on two nodes answer at once: the first takes the call, once', async () => {
    const mo = await createUser(nodeA, 'Mo');
    const ned = await createUser(nodeA, 'Ned');
    await befriend(nodeA, mo, ned);
    const caller = await connect(nodeA, mo);
    const devices = [await connect(nodeA, ned), await connect(nodeB, ned)];
    await seenOnline(nodeA, ned);

    const callId = offer(caller, ned);
    await Promise.all(devices.map((d) => d.waitFor(frameOf('call:offer', callId))));
    for (const d of devices) answer(d, callId, mo);
    await caller.waitFor(frameOf('call:answer', callId));
    const late = await Promise.race(
      devices.map((d) => d.waitFor((f) => endOf(callId)(f) && f.reason === 'unknown')),
    );
    expect(late).toMatchObject({ reason: 'unknown' });
    await WsClient.settle(300);
    expect(caller.of('call:answer')).toHaveLength(1);
    // The other device holds the call: told nothing but that it was answered (on a device: this one).
    const told = devices.map(
      (d) => d.frames.filter((f) => endOf(callId)(f) && f.reason === 'unknown').length,
    );
    expect(told.sort()).toEqual([0, 1]);
    hangUp(caller, callId, ned);
  });

  it('a block made on node B ends the call its coordinator holds, for both sides', async () => {
    const pat = await createUser(nodeA, 'Pat');
    const quin = await createUser(nodeA, 'Quin');
    await befriend(nodeA, pat, quin);
    const p = await connect(nodeA, pat);
    const q = await connect(nodeB, quin);
    await seenOnline(nodeA, quin);
    const callId = offer(p, quin);
    await q.waitFor(frameOf('call:offer', callId));
    answer(q, callId, pat);
    await p.waitFor(frameOf('call:answer', callId));

    // Over REST on the other node: its separation reaches whichever node coordinates the calls.
    expect((await nodeB.post('/api/users/blocks', { userId: pat.id }, quin.token)).status).toBe(200);
    expect(await p.waitFor(endOf(callId))).toMatchObject({ reason: 'ended' });
    expect(await q.waitFor((f) => endOf(callId)(f) && f.reason === 'ended')).toMatchObject({
      reason: 'ended',
    });
  });
});

describe('random talk across two nodes', () => {
  it('two students waiting on different nodes are matched into one room and talk', async () => {
    const one = await student(nodeA, 'Fay');
    const two = await student(nodeB, 'Gus');
    queue(one, 'chat');
    await queued(one);
    queue(two, 'chat');
    const [m1, m2] = await Promise.all([one.waitFor(isMatch), two.waitFor(isMatch)]);
    expect(m1.type).toBe('random-matched');
    expect(m1.roomId).toBe(m2.roomId);
    const roomId = m1.roomId as string;

    one.send({ type: 'random-typing', roomId, typing: true });
    expect(await two.waitFor((f) => f.type === 'random-typing')).toMatchObject({ roomId, typing: true });
    one.send({ type: 'chat-message', roomId, text: 'hello from A' });
    expect(await two.waitFor((f) => f.type === 'chat-message')).toMatchObject({
      roomId,
      text: 'hello from A',
    });
    two.send({ type: 'chat-message', roomId, text: 'hello from B' });
    expect(await one.waitFor((f) => f.type === 'chat-message')).toMatchObject({
      roomId,
      text: 'hello from B',
    });

    two.send({ type: 'leave-random-room', roomId });
    expect(await one.waitFor((f) => f.type === 'random-chat-ended')).toMatchObject({
      roomId,
      reason: 'left',
    });
  });

  it('a student whose connection moves to the other node (a drain, a cut) takes the room back there', async () => {
    const one = await student(nodeA, 'Ivy');
    const jon = await createUser(nodeB, 'Jon');
    await setProfile(nodeB, jon.id, {});
    const two = await connect(nodeB, jon);
    const { roomId } = await matched(one, two, 'chat');
    // Jon's node B connection drops; Ivy talks on meanwhile; Jon comes back through node A.
    two.kill();
    await two.waitClose();
    await WsClient.settle(100);
    one.send({ type: 'chat-message', roomId, text: 'while you were away' });
    await WsClient.settle(100);
    const back = await connect(nodeA, jon);
    back.send({ type: 'random-resume', roomId, heard: 0 });
    await back.waitFor((f) => f.type === 'random-resumed');
    expect(await back.waitFor((f) => f.type === 'chat-message')).toMatchObject({
      roomId,
      text: 'while you were away',
    });
    // Past the grace the room goes on, both ways.
    await WsClient.settle(1300);
    expect(one.frames.some(roomEndOf(roomId))).toBe(false);
    back.send({ type: 'chat-message', roomId, text: 'back on A' });
    expect(await one.waitFor((f) => f.type === 'chat-message')).toMatchObject({ text: 'back on A' });
  });

  it('a block from the room on node B ends it for the partner on node A, who is not matched with them again', async () => {
    const one = await student(nodeA, 'Ray');
    const two = await student(nodeB, 'Sue');
    const { roomId } = await matched(one, two, 'chat');

    two.send({ type: 'random-action', roomId, action: 'block' });
    expect(await two.waitFor((f) => f.type === 'random-action-result')).toMatchObject({ ok: true });
    expect(await one.waitFor(roomEndOf(roomId))).toMatchObject({ reason: 'left' });

    const from = [one.frames.length, two.frames.length] as const;
    queue(one, 'chat');
    await queued(one, from[0]);
    queue(two, 'chat');
    await queued(two, from[1]);
    await WsClient.settle(300);
    expect(one.frames.slice(from[0]).some(isMatch)).toBe(false);
    expect(two.frames.slice(from[1]).some(isMatch)).toBe(false);
  });

  it('counts asked on a node that does not coordinate include the waits of its students', async () => {
    const waiting = await student(nodeB, 'Uma');
    queue(waiting, 'chat');
    await queued(waiting);
    const asker = await createUser(nodeA, 'Val');
    await setProfile(nodeA, asker.id, {});
    const res = await nodeB.get('/api/random/counts', asker.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 1, waiting: { chat: 1, audio: 0, video: 0 } });
  });

  it('three students racing from two nodes: one queue, the longest wait is matched, nobody twice', async () => {
    for (let round = 0; round < 3; round++) {
      const first = await student(nodeA, `Hal${round}`);
      queue(first, 'chat');
      await queued(first);
      const others = [await student(nodeB, `Ivy${round}`), await student(nodeB, `Jo${round}`)];
      // At once, from node B: one of them takes the student who waited on node A.
      for (const ws of others) queue(ws, 'chat');
      await first.waitFor(isMatch);
      await Promise.all(others.map((ws) => queued(ws)));
      await WsClient.settle(300);

      const everyone = [first, ...others];
      for (const ws of everyone) expect(matchesOf(ws).length).toBeLessThanOrEqual(1);
      const rooms = everyone.flatMap((ws) => matchesOf(ws).map((f) => f.roomId));
      // One room, two seats: the third student still waits.
      expect(rooms).toHaveLength(2);
      expect(new Set(rooms).size).toBe(1);
      for (const ws of everyone) ws.close();
      await WsClient.settle(100);
    }
  });
});

describe('when the coordinating node stops', () => {
  const nodes: TestServer[] = [];
  afterAll(async () => {
    for (const node of nodes.reverse()) await node.close().catch(() => undefined);
  });

  it('another node takes over: a wait held there goes on waiting, and is matched across nodes', async () => {
    const redis = testRedisConfig();
    const rolls = await rollCalls(redis.prefix);
    // The first node takes the lease as it starts; the other two forward to it.
    const leader = await startNode(redis);
    const nodeD = await startNode(redis, leader.dataDir);
    const nodeE = await startNode(redis, leader.dataDir);
    nodes.push(leader, nodeD, nodeE);
    const lease = await nodeD.redis!.client.get(`${redis.prefix}:lease:random`);
    expect(lease).toBe(leader.redis!.nodeId);

    const waiting = await student(nodeD, 'Kim');
    queue(waiting, 'chat');
    await queued(waiting);

    // Stopping (not removing the database the other nodes share): it hands the queue over.
    await leader.stop();
    await rolls.tookOver(nodeD, nodeE);
    rolls.close();
    const other = await student(nodeE, 'Lou');
    queue(other, 'chat');
    const [m1, m2] = await Promise.all([waiting.waitFor(isMatch), other.waitFor(isMatch)]);
    expect(m1.roomId).toBe(m2.roomId);
    expect(waiting.frames.some((f) => f.type === 'random-refused')).toBe(false);
    const holder = await nodeD.redis!.client.get(`${redis.prefix}:lease:random`);
    expect([nodeD.redis!.nodeId, nodeE.redis!.nodeId]).toContain(holder);
  });
});

describe('when a node dies', () => {
  // The coordinator checks the other nodes' connections it holds twice a second; the node that dies has a
  // presence lease of its own short enough to run out within the test.
  const redis = testRedisConfig({ rollCallMs: 500 });
  const leaseMs = 1500;
  let leader: TestServer;
  let doomed: TestServer;
  beforeAll(async () => {
    // The first node takes both leases as it starts; the other forwards to it.
    leader = await startNode(redis);
    doomed = await startNode(redis, leader.dataDir, leaseMs);
    expect(await leader.redis!.client.get(`${redis.prefix}:lease:random`)).toBe(leader.redis!.nodeId);
  });
  afterAll(async () => {
    // stop(), not close(): the folder is the leader's.
    await doomed?.stop();
    await leader?.close();
  });

  it("a live node that misses a roll call keeps its students' call (its presence lease still runs)", async () => {
    const [fay, gus] = [await createUser(leader, 'Fay'), await createUser(leader, 'Gus')];
    await befriend(leader, fay, gus);
    const fayD = await connect(doomed, fay);
    const gusD = await connect(doomed, gus);
    const id = await placeCall(leader, [fayD, gusD], [fay, gus]);

    // The node hears nothing on the calls channel for longer than a check waits for answers (two lease
    // renewals): its answers to the coordinator's checks are never sent.
    const channel = `${redis.prefix}:calls`;
    await doomed.redis!.subscriber.unsubscribe(channel);
    await WsClient.settle(3000);
    await doomed.redis!.subscriber.subscribe(channel);
    await WsClient.settle(300);
    // Not ended: no log of it reached either side (changes still flow on their own channel).
    expect(fayD.frames.some((f) => f.type === 'call_logged')).toBe(false);
    hangUp(fayD, id, gus);
    await gusD.waitFor(ending(id, 'ended'));
  });

  it("its students' waits and calls end on the coordinator: nobody is matched with a ghost or kept busy", async () => {
    const [ann, bob] = [await createUser(leader, 'Ann'), await createUser(leader, 'Bob')];
    await befriend(leader, ann, bob);
    const annD = await connect(doomed, ann);
    const bobD = await connect(doomed, bob);
    await placeCall(leader, [annD, bobD], [ann, bob]);
    const cy = await student(doomed, 'Cy');
    queue(cy, 'chat');
    await queued(cy);
    const asker = await createUser(leader, 'Val');
    await setProfile(leader, asker.id, {});
    const counts = async () => {
      const res = await leader.get('/api/random/counts', asker.token);
      if (res.status !== 200) throw new Error(`counts: ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body as { waiting: { chat: number } }).waiting.chat;
    };
    expect(await counts()).toBe(1);

    // The node dies without a word: no close of its connections reaches the coordinator.
    doomed.redis!.client.disconnect();
    doomed.redis!.subscriber.disconnect();
    // Asked four times a second (the counts are rate-limited per student).
    await until(async () => (await counts()) === 0, "the dead node's wait to go", 5 * leaseMs, 250);

    // A student queueing now waits for someone real.
    const dee = await student(leader, 'Dee');
    queue(dee, 'chat');
    await queued(dee);
    await WsClient.settle(300);
    expect(dee.frames.some(isMatch)).toBe(false);

    // Ann comes back on the live node: her call on the dead one ended there (after its grace), so she may
    // call again rather than be told she is already in a call.
    const annL = await connect(leader, ann);
    const eve = await createUser(leader, 'Eve');
    await befriend(leader, ann, eve);
    const eveL = await connect(leader, eve);
    // Ended for the coordinator after the grace of a dropped side, and logged as such.
    await annL.waitFor((f) => f.type === 'call_logged', 0, 5 * leaseMs);
    const id = await placeCall(leader, [annL, eveL], [ann, eve], false);
    expect(annL.frames.some((f) => f.type === 'call:end' && f.callId === id)).toBe(false);
  });
});
