import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Lease } from '../src/realtime/lease';
import { befriend, frameOf, sdp } from './calls-helpers';
import { rollCalls, seenOnline } from './handover-helpers';
import { queue, setProfile } from './random-helpers';
import { requireRedis, TEST_REDIS_URL, testRedisConfig } from './support/redis';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient } from './support/ws-client';

/**
 * Issue 14: with REDIS_URL, the node coordinating calls and random talk keeps their state in Redis for the
 * next one (handover.ts). A student is told they wait ('random-queue') only once the wait is stored there,
 * two students hear of their room only once the room is, a callee is rung only once the call is, and a
 * caller hears the answer only once the answered call is: told before, a SIGKILL in between lost a wait or
 * a room the students had been told of, rang a callee for a call nobody knew of, or left two people
 * talking in a call the next coordinator still had ringing. The coordinator's state
 * writes are held back here (300 ms each), so the order shows.
 */
const WRITE_DELAY_MS = 300;
const redis = testRedisConfig();
let node: TestServer;
let client: Redis;
const sockets: WsClient[] = [];

beforeAll(async () => {
  await requireRedis();
  const write = Lease.prototype.write;
  vi.spyOn(Lease.prototype, 'write').mockImplementation(async function (this: Lease, ops) {
    await new Promise((resolve) => setTimeout(resolve, WRITE_DELAY_MS));
    return write.call(this, ops);
  });
  const rolls = await rollCalls(redis.prefix);
  node = await startTestServer({ config: { redis, randomCountFloor: 1 } });
  await rolls.tookOver(node);
  rolls.close();
  client = new Redis(TEST_REDIS_URL);
});

afterAll(async () => {
  for (const ws of sockets) ws.close();
  await node?.close();
  client?.disconnect();
  vi.restoreAllMocks();
});

describe('a random-talk wait with REDIS_URL', () => {
  it('is acknowledged only once it is stored in Redis', async () => {
    const ivy = await createUser(node, 'Ivy');
    await setProfile(node, ivy.id, {});
    const ws = await WsClient.connect(node, ivy);
    sockets.push(ws);
    const asked = Date.now();
    queue(ws, 'chat');
    await ws.waitFor((frame) => frame.type === 'random-queue');
    const waited = Date.now() - asked;
    const stored = await client.hget(`${redis.prefix}:random:state`, `w:${ivy.id}`);
    expect(stored, 'the wait is in Redis when the student hears of it').not.toBeNull();
    expect(waited).toBeGreaterThanOrEqual(WRITE_DELAY_MS - 20);
    // Ivy leaves: the next test's students must meet each other, not her.
    ws.close();
    await vi.waitFor(
      async () => expect(await client.hget(`${redis.prefix}:random:state`, `w:${ivy.id}`)).toBeNull(),
      { timeout: 5000, interval: 50 },
    );
  });
});

describe('a random-talk match with REDIS_URL', () => {
  it('is told to both students only once their room is stored in Redis', async () => {
    const [jo, kim] = [await createUser(node, 'Jo'), await createUser(node, 'Kim')];
    await setProfile(node, jo.id, {});
    await setProfile(node, kim.id, {});
    const j = await WsClient.connect(node, jo);
    const k = await WsClient.connect(node, kim);
    sockets.push(j, k);
    queue(j, 'chat');
    await j.waitFor((frame) => frame.type === 'random-queue');
    const asked = Date.now();
    queue(k, 'chat');
    const matched = await k.waitFor((frame) => frame.type === 'random-matched');
    const waited = Date.now() - asked;
    if (matched.type !== 'random-matched') throw new Error('not a match');
    const { roomId } = matched;
    const stored = await client.hget(`${redis.prefix}:random:state`, `r:${roomId}`);
    expect(stored, 'the room is in Redis when the students hear of it').not.toBeNull();
    expect(waited).toBeGreaterThanOrEqual(WRITE_DELAY_MS - 20);
    await j.waitFor((frame) => frame.type === 'random-matched' && frame.roomId === roomId);
  });
});

describe('a call with REDIS_URL', () => {
  it('rings the callee, and its answer reaches the caller, only once stored in Redis', async () => {
    const ann = await createUser(node, 'Ann');
    const bob = await createUser(node, 'Bob');
    await befriend(node, ann, bob);
    const a = await WsClient.connect(node, ann);
    const b = await WsClient.connect(node, bob);
    sockets.push(a, b);
    await seenOnline(node, bob);

    const callId = randomUUID();
    const called = Date.now();
    a.send({ type: 'call:offer', callId, to: bob.id, callType: 'audio', signal: sdp('offer') });
    await b.waitFor(frameOf('call:offer', callId));
    const rungAfter = Date.now() - called;
    const ringing = await client.hget(`${redis.prefix}:calls:state`, `c:${callId}`);
    expect(ringing, 'the call is in Redis when the callee is rung').not.toBeNull();
    expect(rungAfter).toBeGreaterThanOrEqual(WRITE_DELAY_MS - 20);
    await a.waitFor(frameOf('call:ringing', callId));

    const asked = Date.now();
    b.send({ type: 'call:answer', callId, to: ann.id, signal: sdp('answer') });
    await a.waitFor(frameOf('call:answer', callId));
    const waited = Date.now() - asked;

    const raw = await client.hget(`${redis.prefix}:calls:state`, `c:${callId}`);
    expect(raw, 'the call is in Redis when the caller hears the answer').not.toBeNull();
    expect(JSON.parse(raw!), 'stored as answered').toMatchObject({ state: 'active' });
    expect(waited).toBeGreaterThanOrEqual(WRITE_DELAY_MS - 20);
  });
});
