import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from './logger';
import type { RateRule } from './rate-rule';
import type { FailureCount, SharedFailureCounts, SharedRateCounts } from './shared-counts';

/**
 * The sliding log of lib/sliding-log.ts in a sorted set, in one step: drop what left the window, then add
 * `count` hits if they fit (all or none) or answer the ms until they would. Times are the node's clock
 * (ARGV), not Redis's, so every node and every test clock judge a log the same way.
 * KEYS[1] the log; ARGV: now, windowMs, limit, count, a member id unique to this call.
 */
const SLIDING_HIT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local count = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local size = redis.call('ZCARD', KEYS[1])
if size + count > limit then
  local freeing = now
  local at = size + count - limit - 1
  if at < size then
    freeing = tonumber(redis.call('ZRANGE', KEYS[1], at, at, 'WITHSCORES')[2])
  end
  -- At least 1: Redis turns a Lua number into an integer, and 0 would read as allowed.
  return math.max(1, math.ceil(freeing + window - now))
end
for i = 1, count do
  redis.call('ZADD', KEYS[1], now, ARGV[5] .. ':' .. i)
end
redis.call('PEXPIRE', KEYS[1], window)
return 0
`;

/** Each key's failures and the ms left in its window, as a flat list. KEYS: counters; ARGV: now. */
const FAILURES_READ = `
local now = tonumber(ARGV[1])
local out = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('HMGET', key, 'c', 'u')
  local c, u = tonumber(v[1]), tonumber(v[2])
  if c and u and u > now then
    out[#out + 1] = c
    out[#out + 1] = u - now
  else
    out[#out + 1] = 0
    out[#out + 1] = 0
  end
end
return out
`;

/**
 * One more failure per key, in a fixed window its first failure opens (count and end in a hash; INCR and
 * PEXPIRE in one step, so a counter never outlives its window). KEYS: counters; ARGV: now, then each
 * key's windowMs.
 */
const FAILURES_RECORD = `
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[i + 1])
  local u = tonumber(redis.call('HGET', key, 'u'))
  if u and u > now then
    redis.call('HINCRBY', key, 'c', 1)
  else
    redis.call('HSET', key, 'c', 1, 'u', now + window)
    redis.call('PEXPIRE', key, window)
  end
end
return 1
`;

interface Script {
  body: string;
  sha: string;
}
const script = (body: string): Script => ({ body, sha: createHash('sha1').update(body).digest('hex') });
const SCRIPTS = {
  slidingHit: script(SLIDING_HIT),
  failuresRead: script(FAILURES_READ),
  failuresRecord: script(FAILURES_RECORD),
};

/** A key's part that names no one: e-mail addresses and IPs never reach Redis in the clear. */
const digest = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);

/** How long a limit waits for Redis before it decides on this node's own counts. */
export const REDIS_RATE_TIMEOUT_MS = 250;

/**
 * Rate-limit counts shared by every node through REDIS_URL, one round trip per check (a Lua script, so a
 * count and its expiry change together). Keys are `<REDIS_PREFIX>:rate:<limit>:<digest of key>`.
 *
 * Redis failing must never refuse or hold a request: the command connection's offline queue is off (a
 * command while it is down rejects at once) and each call gives up after `timeoutMs`. Then the answer is
 * `undefined` and the caller falls back to its node-local count; the first such failure is logged, and
 * the next once Redis has answered again.
 */
export class RedisRates implements SharedRateCounts, SharedFailureCounts {
  private readonly callId = randomUUID();
  private calls = 0;
  private down = false;

  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
    private readonly timeoutMs = REDIS_RATE_TIMEOUT_MS,
  ) {}

  hit(name: string, key: string, rule: RateRule, count: number, now: number): Promise<number | undefined> {
    const member = `${this.callId}:${(this.calls += 1)}`;
    const args = [now, rule.windowMs, rule.limit, count, member];
    return this.guarded(async () =>
      Number(await this.run(SCRIPTS.slidingHit, [this.key('rate', name, key)], args)),
    );
  }

  failures(keys: readonly (readonly [string, string])[], now: number): Promise<FailureCount[] | undefined> {
    const names = keys.map(([name, key]) => this.key('fail', name, key));
    return this.guarded(async () => {
      const flat = (await this.run(SCRIPTS.failuresRead, names, [now])) as number[];
      return names.map((_, i) => ({ count: Number(flat[2 * i]), resetInMs: Number(flat[2 * i + 1]) }));
    });
  }

  async recordFailures(
    counters: readonly (readonly [string, string, number])[],
    now: number,
  ): Promise<boolean> {
    const names = counters.map(([name, key]) => this.key('fail', name, key));
    const windows = counters.map(([, , windowMs]) => windowMs);
    return (
      (await this.guarded(() => this.run(SCRIPTS.failuresRecord, names, [now, ...windows]))) !== undefined
    );
  }

  async clearFailures(name: string, key: string): Promise<void> {
    await this.guarded(() => this.client.del(this.key('fail', name, key)));
  }

  private key(kind: 'rate' | 'fail', name: string, key: string): string {
    return `${this.prefix}:${kind}:${name}:${digest(key)}`;
  }

  /** EVALSHA, and EVAL once when Redis does not know the script yet (a restart flushed its cache). */
  private async run(s: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.client.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return this.client.eval(s.body, keys.length, ...keys, ...args);
    }
  }

  private async guarded<T>(work: () => Promise<T>): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const result = await Promise.race([work(), deadline]);
      if (this.down) {
        this.down = false;
        this.log.info('redis: rate limits are deployment-wide again');
      }
      return result;
    } catch (err) {
      if (!this.down) {
        this.down = true;
        this.log.warn(
          { err },
          "redis: rate limits fall back to each node's own counts (logged once until Redis answers again)",
        );
      }
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}
