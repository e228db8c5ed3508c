import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import type { RedisConfig } from '../../src/config';

/** TEST_REDIS_URL: the Redis the multi-node tests share (CI runs it on 127.0.0.1:6379). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A Redis configuration for one group of nodes, with a prefix of its own (`ct-test-<uuid>`, new at each
 * call): runs and groups sharing the Redis never hear each other nor count each other's hits. The periodic
 * gap check is a minute away, so only what a test does brings a node what it missed.
 */
export function testRedisConfig(overrides: Partial<RedisConfig> = {}): RedisConfig {
  return {
    url: TEST_REDIS_URL,
    prefix: `ct-test-${randomUUID()}`,
    gapCheckMs: 60_000,
    revocationCheckMs: 60_000,
    rollCallMs: 10_000,
    ...overrides,
  };
}

/**
 * Fails (never skips) when Redis is not answering at TEST_REDIS_URL, saying how to start it: a skipped
 * suite would hide that the multi-node path went untested.
 */
export async function requireRedis(): Promise<void> {
  const probe = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    expect(await probe.ping()).toBe('PONG');
  } catch (err) {
    throw new Error(
      `Redis is not answering at ${TEST_REDIS_URL}: these tests need it. Start it with ` +
        '`redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no`',
      { cause: err },
    );
  } finally {
    probe.disconnect();
  }
}
