import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { CALL_MSG, SERVER_MSG } from '@campus/protocol';
import { createLogger } from '../src/lib/logger';
import { RateLimiter } from '../src/lib/rate-limit';
import { RedisRates } from '../src/lib/redis-rates';
import { RTC_CONFIG_RATE } from '../src/modules/calls/routes';
import { requireRedis, TEST_REDIS_URL, testRedisConfig } from './support/redis';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser } from './support/ws-client';

/**
 * Issue 14: with REDIS_URL the rate limits and the login throttle count across the nodes behind the load
 * balancer, so spreading requests over them gains nothing. Three nodes on one SQLite file and one Redis
 * (as in redis-nodes.test.ts); node C later loses its Redis connection. CI runs Redis on 127.0.0.1:6379;
 * without it these tests fail, they are never skipped.
 */
// A prefix per run: runs sharing the Redis never count each other's hits.
const redis = testRedisConfig();
// A short login delay: what is tested is where the failures are counted.
const rateRules = {
  loginDelayPerEmail: { afterFailures: 5, baseMs: 1, maxMs: 4, windowMs: 15 * 60_000 },
};

let nodeA: TestServer;
let nodeB: TestServer;
let nodeC: TestServer;

beforeAll(async () => {
  await requireRedis();
  nodeA = await startTestServer({ config: { redis }, rateRules });
  nodeB = await startTestServer({ config: { redis, dataDir: nodeA.dataDir }, rateRules });
  nodeC = await startTestServer({ config: { redis, dataDir: nodeA.dataDir }, rateRules });
});
afterAll(async () => {
  await nodeC?.close();
  await nodeB?.close();
  await nodeA?.close();
});

const login = (node: TestServer, email: string, password: string) =>
  node.post('/api/auth/login', { email, password });

describe('rate limits shared through Redis', () => {
  it('login failures spread over two nodes meet the throttle at the same total as on one node', async () => {
    const email = `target-${randomUUID().slice(0, 8)}@uni.edu`;
    // 5 wrong passwords on each node: 10 for the address from this IP.
    for (let i = 0; i < 10; i++) {
      expect((await login(i % 2 ? nodeB : nodeA, email, `guess-${i}`)).status).toBe(401);
    }
    for (const node of [nodeA, nodeB]) {
      const blocked = await login(node, email, 'guess-x');
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toBe(SERVER_MSG.tooManyRequests);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('a REST limit (the RTC config, 60 an hour) is one budget across the nodes, with its message and Retry-After', async () => {
    const user = await createUser(nodeA, 'Rae');
    for (let i = 0; i < RTC_CONFIG_RATE.limit; i++) {
      expect((await (i % 2 ? nodeB : nodeA).get('/api/rtc/config', user.token)).status).toBe(200);
    }
    for (const node of [nodeA, nodeB]) {
      const refused = await node.get('/api/rtc/config', user.token);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe(CALL_MSG.rateLimited);
      // The oldest fetch leaves the hour's window first: about an hour from now.
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    }
  });

  it('a check inside a commit (hitNow) hears what other nodes counted, and passes the limit by one at most', async () => {
    const rule = { limit: 3, windowMs: 60_000 };
    const onA = nodeA.deps.rates.limiter('test.outbox', rule);
    const onB = nodeB.deps.rates.limiter('test.outbox', rule);
    const key = randomUUID();
    for (let i = 0; i < rule.limit; i++) expect(await onA.hit(key)).toBe(0);
    // Node B decides at once on what it knows (nothing yet); the shared count refuses in the background.
    expect(onB.hitNow(key)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(onB.hitNow(key)).toBeGreaterThan(0);
    expect(await onA.hit(key)).toBeGreaterThan(0);
  });

  it('with Redis gone, a node still answers at once: what it heard refused stays refused, the rest it counts alone', async () => {
    const cato = await createUser(nodeA, 'Cato');
    const dot = await createUser(nodeA, 'Dot');
    const half = RTC_CONFIG_RATE.limit / 2;
    for (let i = 0; i < half; i++) expect((await nodeA.get('/api/rtc/config', cato.token)).status).toBe(200);
    for (let i = 0; i < half; i++) expect((await nodeC.get('/api/rtc/config', cato.token)).status).toBe(200);
    // Shared while Redis answers: node C saw only half of the hour's fetches.
    expect((await nodeC.get('/api/rtc/config', cato.token)).status).toBe(429);

    // Node C's command connection goes (its offline queue is off: commands fail at once).
    nodeC.redis!.client.disconnect();
    const started = Date.now();
    // The deployment-wide refusal C heard still holds: the user really is over the limit.
    expect((await nodeC.get('/api/rtc/config', cato.token)).status).toBe(429);
    // Anyone else is served and counted by C alone, with the same limit, message and Retry-After.
    for (let i = 0; i < RTC_CONFIG_RATE.limit; i++)
      expect((await nodeC.get('/api/rtc/config', dot.token)).status).toBe(200);
    const refused = await nodeC.get('/api/rtc/config', dot.token);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(CALL_MSG.rateLimited);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    // Logins are still answered, their failures counted by C alone.
    expect((await login(nodeC, `nobody-${randomUUID().slice(0, 8)}@uni.edu`, 'wrong')).status).toBe(401);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives up on a Redis that never answers after its timeout, logs that once, and uses the node’s own count', async () => {
    // A server that accepts the connection and never says a word: every command hangs.
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const client = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: true,
      enableOfflineQueue: false,
      // No handshake (ready check, HELLO, client info) for the silent server to leave unanswered.
      enableReadyCheck: false,
      disableClientInfo: true,
      protocol: 2,
      maxRetriesPerRequest: 0,
    });
    client.on('error', () => undefined);
    await client.connect();
    const log = createLogger('silent');
    const warn = vi.spyOn(log, 'warn');
    const limiter = new RateLimiter({ limit: 2, windowMs: 60_000 }, Date.now, {
      counts: new RedisRates(client, 'ct-silent', log, 100),
      name: 'test.silent',
    });
    try {
      const started = Date.now();
      expect(await limiter.hit('k')).toBe(0);
      expect(await limiter.hit('k')).toBe(0);
      expect(await limiter.hit('k')).toBeGreaterThan(0);
      // Three checks, each given up after 100 ms.
      expect(Date.now() - started).toBeLessThan(1500);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      client.disconnect();
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('keys name no address: e-mails and IPs reach Redis only as digests', async () => {
    const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true });
    await probe.connect();
    try {
      const email = `secret-${randomUUID().slice(0, 8)}@uni.edu`;
      expect((await login(nodeA, email, 'wrong')).status).toBe(401);
      const keys = await probe.keys(`${redis.prefix}:*`);
      expect(keys.some((k) => k.startsWith(`${redis.prefix}:fail:login-address:`))).toBe(true);
      expect(keys.some((k) => k.includes(email) || k.includes('127.0.0.1') || k.includes('@'))).toBe(false);
    } finally {
      probe.disconnect();
    }
  });
});
