import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireRedis, testRedisConfig } from './support/redis';
import { until } from './support/until';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * With REDIS_URL a node that cannot reach Redis would not hear the other nodes' commits, typing or calls:
 * `/readyz` says so and the load balancer stops sending it students. Needs Redis on 127.0.0.1:6379 (CI has
 * it); it fails without it, it is never skipped.
 */
const redis = testRedisConfig();

let node: TestServer;
beforeAll(async () => {
  await requireRedis();
  node = await startTestServer({ config: { redis } });
});
afterAll(() => node?.close());

describe('/readyz with REDIS_URL', () => {
  it('checks Redis beside the database, and turns 503 naming it when Redis stops answering', async () => {
    const ready = await node.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });

    // The command connection drops (its offline queue is off, so PING fails at once rather than waiting).
    const client = node.redis!.client;
    client.disconnect(false);
    const down = await node.get('/readyz');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'failed' } });
    // Liveness asks nothing of Redis.
    expect((await node.get('/healthz')).status).toBe(200);

    // Back (a lazy client reconnects by itself at the next command it is given, the lease's renewal say).
    await client.connect().catch(() => undefined);
    await until(async () => (await node.get('/readyz')).status === 200, 'ready again', 5000, 50);
  });
});
