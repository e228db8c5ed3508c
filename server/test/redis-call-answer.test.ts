import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Lease } from '../src/realtime/lease';
import { befriend, frameOf, sdp } from './calls-helpers';
import { rollCalls, seenOnline } from './handover-helpers';
import { requireRedis, TEST_REDIS_URL, testRedisConfig } from './support/redis';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient } from './support/ws-client';

/**
 * Issue 14: with REDIS_URL, the node coordinating calls keeps each call in Redis for the next one
 * (handover.ts). A caller hears the answer only once the answered call is stored there: told before, a
 * SIGKILL in between left the two talking in a call the next coordinator still had ringing (and ended as
 * unanswered at its timeout). The coordinator's state writes are held back here (300 ms each), so the order
 * shows.
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
  node = await startTestServer({ config: { redis } });
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

describe('a call answered with REDIS_URL', () => {
  it('reaches the caller only once the answered call is stored in Redis', async () => {
    const ann = await createUser(node, 'Ann');
    const bob = await createUser(node, 'Bob');
    await befriend(node, ann, bob);
    const a = await WsClient.connect(node, ann);
    const b = await WsClient.connect(node, bob);
    sockets.push(a, b);
    await seenOnline(node, bob);

    const callId = randomUUID();
    a.send({ type: 'call:offer', callId, to: bob.id, callType: 'audio', signal: sdp('offer') });
    await b.waitFor(frameOf('call:offer', callId));
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
