import { describe, expect, it } from 'vitest';
import { deploymentClock, type RedisTimeSource } from '../src/lib/deployment-clock';
import type { Logger } from '../src/lib/logger';

/**
 * The deployment's clock (lib/deployment-clock.ts): a node's own clock moved onto Redis's `TIME`, so that
 * deadlines one coordinator stores mean the same to the next. Redis and the node's clock are simulated
 * here; redis-handover.test.ts runs it against Redis with two nodes.
 */
function logger() {
  const warnings: unknown[] = [];
  const log = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
  return { log, warnings };
}

/** A node's clock and a Redis whose time is `ahead` ms ahead; each TIME takes `rtts` ms in turn. */
function world(ahead: number, rtts: number[]) {
  let local = 1_700_000_000_000;
  let call = 0;
  const redis: RedisTimeSource = {
    async time() {
      const rtt = rtts[call++ % rtts.length]!;
      // Redis reads its clock half way through the round trip.
      local += rtt / 2;
      const redisMs = local + ahead;
      local += rtt / 2;
      return [String(Math.floor(redisMs / 1000)), String((redisMs % 1000) * 1000)];
    },
  };
  return { redis, localNow: () => local, advance: (ms: number) => (local += ms) };
}

describe('deployment clock', () => {
  it('counts on Redis’s time, from the sample with the shortest round trip', async () => {
    const w = world(30_000, [40, 2, 30, 60, 20]);
    const { log, warnings } = logger();
    const clock = await deploymentClock(w.redis, log, w.localNow);
    expect(clock.offsetMs()).toBe(30_000);
    expect(clock.now()).toBe(w.localNow() + 30_000);
    // Thirty seconds off: the node's time sync is broken, and the log says so.
    expect(warnings).toHaveLength(1);
    clock.close();
  });

  it('never goes back when a later measure finds a smaller offset', async () => {
    let ahead = 1000;
    let local = 1_700_000_000_000;
    const redis: RedisTimeSource = {
      async time() {
        const ms = local + ahead;
        return [String(Math.floor(ms / 1000)), String((ms % 1000) * 1000)];
      },
    };
    const { log } = logger();
    const clock = await deploymentClock(redis, log, () => local, 10);
    const before = clock.now();
    ahead = 0;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(clock.offsetMs()).toBe(0);
    expect(clock.now()).toBe(before);
    local += 2000;
    expect(clock.now()).toBe(local);
    clock.close();
  });

  it('keeps the node’s own clock when TIME fails, and says so', async () => {
    const redis: RedisTimeSource = { time: () => Promise.reject(new Error('down')) };
    const { log, warnings } = logger();
    const clock = await deploymentClock(redis, log, () => 5000);
    expect(clock.now()).toBe(5000);
    expect(warnings).toHaveLength(1);
    clock.close();
  });

  it('says nothing of a node within half a second of Redis', async () => {
    const w = world(-120, [1]);
    const { log, warnings } = logger();
    const clock = await deploymentClock(w.redis, log, w.localNow);
    expect(clock.offsetMs()).toBe(-120);
    expect(warnings).toEqual([]);
    clock.close();
  });
});
