import { createHash } from 'node:crypto';
import type { Logger } from '../lib/logger';
import type { RedisLink } from './redis-bus';

/**
 * REDIS_URL: who is online across every node, so presence and the online count are the deployment's and not
 * one node's (issue 14).
 *
 * In Redis, under the deployment's prefix:
 * - `presence:nodes`, a sorted set: each live node and the end of its lease (ms, Redis's clock). A node renews
 *   it every third of the lease; a node whose lease ran out (a crash, a lost connection) is reaped by the next
 *   script any node runs, so its users stop counting within the lease even though it never cleaned up;
 * - `presence:node:<id>`, a set per node: the users with at least one connection there;
 * - `presence:users`, a hash: user → how many live nodes hold them. A user is online when they have a field;
 *   HLEN is the deployment's online count.
 * Each change is one Lua script, so two nodes racing on one user's first (or last) connection are ordered by
 * Redis: exactly one of them sees 0 → 1 (1 → 0) and announces it. Redis Cluster is not supported (a reap
 * touches keys it was not given), like the rest of REDIS_URL.
 *
 * Redis failing (down, slow past `timeoutMs`) never blocks or breaks a connection: each answer falls back to
 * this node's own state, failures are logged once until Redis answers again, and the node's share is written
 * again in full (a resync) on its next heartbeat, since what failed may or may not have reached Redis.
 */

/** What this node knows by itself: its own connections (the hub). */
export interface LocalPresence {
  isOnline(userId: string): boolean;
  onlineUserCount(): number;
  onlineUsers(): Iterable<string>;
}

export interface RedisPresenceOptions {
  /** A node silent this long is dead: its users no longer count. Renewed every third of it. */
  leaseMs: number;
  /** A presence answer waits this long for Redis before falling back to this node's own. */
  timeoutMs: number;
  log: Logger;
}

export interface Joined {
  /** The user's first connection in the whole deployment. */
  first: boolean;
  /** Which of the contacts asked about are online on any node. */
  online: string[];
  count: number;
}

/** Users online or offline now whose contacts were not told by a connection (RedisPresence.onUnannounced). */
export interface PresenceChange {
  gone?: readonly string[];
  back?: readonly string[];
}

export interface Left {
  /** The user's last connection in the whole deployment closed. */
  last: boolean;
  online: string[];
}

// KEYS[1] nodes (zset), KEYS[2] users (hash), KEYS[3] this node's set; ARGV[1] the node sets' key prefix,
// ARGV[2] this node's id. Redis 5+ replicates scripts by effects, so TIME before writes is allowed. Every
// script but RETIRE reaps first and answers a list whose first item is the users the reap took offline.
const PRELUDE = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- Takes a node's users out of the counts; adds those now online nowhere to the list gone.
local function withdraw(key, gone)
  for _, user in ipairs(redis.call('SMEMBERS', key)) do
    if redis.call('HINCRBY', KEYS[2], user, -1) <= 0 then
      redis.call('HDEL', KEYS[2], user)
      gone[#gone + 1] = user
    end
  end
  redis.call('DEL', key)
end
-- Nodes whose lease ran out: a crash or a lost connection, with no cleanup of their own.
local function reap()
  local gone = {}
  for _, node in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now_ms())) do
    withdraw(ARGV[1] .. node, gone)
    redis.call('ZREM', KEYS[1], node)
  end
  return gone
end
local function online_among(from)
  local online = {}
  for i = from, #ARGV do
    if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 1 then online[#online + 1] = ARGV[i] end
  end
  return online
end
local function stale()
  return not redis.call('ZSCORE', KEYS[1], ARGV[2])
end
-- Renewed with every heartbeat: what a deployment (or a test run) left behind when all its nodes died goes.
local function keep()
  for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], 86400000) end
end
`;

/** ARGV[3] user, ARGV[4] '1' when it is their first connection on this node, ARGV[5..] their contacts. */
const JOIN = `${PRELUDE}
local gone = reap()
if stale() then return {gone, 1, 0, redis.call('HLEN', KEYS[2]), online_among(5)} end
local first = 0
if ARGV[4] == '1' and redis.call('SADD', KEYS[3], ARGV[3]) == 1 then
  if redis.call('HINCRBY', KEYS[2], ARGV[3], 1) == 1 then first = 1 end
end
return {gone, 0, first, redis.call('HLEN', KEYS[2]), online_among(5)}
`;

/** The user's last connection on this node closed. ARGV[3] user, ARGV[4..] their contacts. */
const LEAVE = `${PRELUDE}
local gone = reap()
if stale() then return {gone, 1, 0, online_among(4)} end
local last = 0
if redis.call('SREM', KEYS[3], ARGV[3]) == 1 then
  if redis.call('HINCRBY', KEYS[2], ARGV[3], -1) <= 0 then
    redis.call('HDEL', KEYS[2], ARGV[3])
    last = 1
  end
elseif redis.call('HEXISTS', KEYS[2], ARGV[3]) == 0 then
  -- Never recorded here (Redis was down at the join): online nowhere now, so this was the last.
  last = 1
end
return {gone, 0, last, online_among(4)}
`;

/** ARGV[3] the lease. Not renewed means this node was reaped (it stalled past its lease): resync. */
const BEAT = `${PRELUDE}
local gone = reap()
if stale() then return {gone, 0} end
redis.call('ZADD', KEYS[1], now_ms() + tonumber(ARGV[3]), ARGV[2])
keep()
return {gone, 1}
`;

/**
 * Replaces this node's share by ARGV[4..] (its users now) and renews its lease (ARGV[3]). Answers, after the
 * reap, those of its users who were online nowhere before (a reap took them while this node stalled, or
 * their join failed while Redis was down): their contacts have not heard they are here.
 */
const SYNC = `${PRELUDE}
local gone = reap()
local revived = {}
for i = 4, #ARGV do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 0 then revived[#revived + 1] = ARGV[i] end
end
withdraw(KEYS[3], {})
for i = 4, #ARGV do
  redis.call('SADD', KEYS[3], ARGV[i])
  redis.call('HINCRBY', KEYS[2], ARGV[i], 1)
end
redis.call('ZADD', KEYS[1], now_ms() + tonumber(ARGV[3]), ARGV[2])
keep()
return {gone, revived}
`;

/** A clean stop: this node's users leave the counts at once. */
const RETIRE = `${PRELUDE}
withdraw(KEYS[3], {})
redis.call('ZREM', KEYS[1], ARGV[2])
return 1
`;

/** ARGV[3..] users: the count and which of them are online. */
const READ = `${PRELUDE}
local gone = reap()
return {gone, redis.call('HLEN', KEYS[2]), online_among(3)}
`;

/** KEYS[1] the nodes (zset), ARGV[1] a node: 1 while its lease runs, else 0. */
const ALIVE = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 0 end
local t = redis.call('TIME')
if tonumber(score) > tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) then return 1 end
return 0`;

/**
 * Whether node `nodeId`'s presence lease still runs (it renews it every third of the lease while alive).
 * True when Redis cannot say: the caller keeps what it has rather than drop a live node's connections.
 */
export async function nodeAlive(
  client: RedisLink['client'],
  prefix: string,
  nodeId: string,
): Promise<boolean> {
  try {
    return (await client.eval(ALIVE, 1, `${prefix}:presence:nodes`, nodeId)) !== 0;
  } catch {
    return true;
  }
}

interface Script {
  lua: string;
  sha: string;
}
const script = (lua: string): Script => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });
const SCRIPTS = {
  join: script(JOIN),
  leave: script(LEAVE),
  beat: script(BEAT),
  sync: script(SYNC),
  retire: script(RETIRE),
  read: script(READ),
};

/** The message on the `presence` channel: the online count changed, read it again. */
const COUNT_CHANGED = 'count';

export class RedisPresence {
  private readonly keys: [string, string, string];
  private readonly nodePrefix: string;
  private readonly timer: NodeJS.Timeout;
  private readonly countListeners = new Set<() => void>();
  private readonly unannouncedListeners = new Set<(change: PresenceChange) => void>();
  /** Redis may not hold this node's share as it is: write it in full on the next heartbeat. */
  private dirty = true;
  private beating = false;
  private failing = false;
  private closed = false;

  constructor(
    private readonly link: RedisLink,
    private readonly local: LocalPresence,
    private readonly options: RedisPresenceOptions,
    prefix: string,
  ) {
    this.nodePrefix = `${prefix}:presence:node:`;
    this.keys = [`${prefix}:presence:nodes`, `${prefix}:presence:users`, this.nodePrefix + link.nodeId];
    link.listen('presence', (body) => {
      if (body === COUNT_CHANGED && !this.closed) this.notifyCount();
    });
    this.timer = setInterval(() => void this.beat(), Math.max(20, Math.floor(options.leaseMs / 3)));
    this.timer.unref();
    // Registers this node before any join: commands on one connection run in order.
    void this.beat();
  }

  /** Other nodes' first and last connections, and reaped nodes: the online count may have changed. */
  onCountChanged(listener: () => void): () => void {
    this.countListeners.add(listener);
    return () => {
      this.countListeners.delete(listener);
    };
  }

  /**
   * Users whose presence changed without a connection of theirs saying so: `gone`, online nowhere since a
   * node died (its lease ran out; exactly one node's reap reports each), and `back`, this node's own users
   * written again after Redis had lost them (a stall past the lease, a join while Redis was down). The
   * listener tells their contacts, who heard nothing from the connections themselves.
   */
  onUnannounced(listener: (change: PresenceChange) => void): () => void {
    this.unannouncedListeners.add(listener);
    return () => {
      this.unannouncedListeners.delete(listener);
    };
  }

  /**
   * A connection of `userId` signed in here (`localFirst`: their first on this node). One round trip: whether
   * it is their first anywhere, which contacts are online anywhere, and the online count.
   */
  async joined(userId: string, localFirst: boolean, contacts: readonly string[]): Promise<Joined> {
    const fallback = (): Joined => ({
      first: localFirst,
      online: this.localAmong(contacts),
      count: this.local.onlineUserCount(),
    });
    const reply = await this.run(SCRIPTS.join, [userId, localFirst ? '1' : '0', ...contacts]);
    if (!reply) return fallback();
    const [stale, first, count, online] = reply as [number, number, number, string[]];
    if (stale) return this.resyncNow(fallback());
    if (first) this.link.publish('presence', COUNT_CHANGED);
    return { first: first === 1, online: this.withLocal(online, contacts), count };
  }

  /** The last connection of `userId` on this node closed: whether it was their last anywhere. */
  async left(userId: string, contacts: readonly string[]): Promise<Left> {
    const fallback = (): Left => ({ last: !this.local.isOnline(userId), online: this.localAmong(contacts) });
    const reply = await this.run(SCRIPTS.leave, [userId, ...contacts]);
    if (!reply) return fallback();
    const [stale, last, online] = reply as [number, number, string[]];
    if (stale) return this.resyncNow(fallback());
    if (last) this.link.publish('presence', COUNT_CHANGED);
    return { last: last === 1, online: this.withLocal(online, contacts) };
  }

  /** Which of `userIds` have a connection on any node. */
  async onlineAmong(userIds: readonly string[]): Promise<string[]> {
    if (!userIds.length) return [];
    const reply = await this.run(SCRIPTS.read, userIds);
    if (!reply) return this.localAmong(userIds);
    return this.withLocal((reply as [number, string[]])[1], userIds);
  }

  async isOnline(userId: string): Promise<boolean> {
    return (await this.onlineAmong([userId])).length > 0;
  }

  /** Distinct users online on any node. */
  async count(): Promise<number> {
    const reply = await this.run(SCRIPTS.read, []);
    if (!reply) return this.local.onlineUserCount();
    return (reply as [number, string[]])[0];
  }

  /** A clean stop: this node's users stop counting now rather than when its lease runs out. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.countListeners.clear();
    this.unannouncedListeners.clear();
    // Plain EVAL: the link's QUIT comes next, and no NOSCRIPT retry could follow it.
    const [nodes, users, own] = this.keys;
    this.link.client
      .eval(SCRIPTS.retire.lua, 3, nodes, users, own, this.nodePrefix, this.link.nodeId)
      .catch(() => undefined);
  }

  private async beat(): Promise<void> {
    if (this.beating || this.closed) return;
    this.beating = true;
    try {
      if (this.dirty) return await this.sync();
      const reply = await this.run(SCRIPTS.beat, [String(this.options.leaseMs)]);
      // Reaped (this node stalled past its lease): its users are back only when written again.
      if (reply && !reply[0]) await this.sync();
    } finally {
      this.beating = false;
    }
  }

  private async sync(): Promise<void> {
    this.dirty = false;
    const reply = await this.run(SCRIPTS.sync, [String(this.options.leaseMs), ...this.local.onlineUsers()]);
    if (reply === undefined) return;
    this.countChanged();
    const back = reply[0];
    if (Array.isArray(back) && back.length) this.unannounced({ back: back as string[] });
  }

  /** Redis had forgotten this node (reaped): this node's answer now, and its share written again at once. */
  private resyncNow<T>(answer: T): T {
    this.dirty = true;
    void this.beat();
    return answer;
  }

  /** This node's count and the others' may differ now: everyone reads it again. */
  private countChanged(): void {
    this.link.publish('presence', COUNT_CHANGED);
    this.notifyCount();
  }

  private unannounced(change: PresenceChange): void {
    for (const listener of this.unannouncedListeners) {
      try {
        listener(change);
      } catch (err) {
        this.options.log.error({ err }, 'presence listener failed');
      }
    }
  }

  private notifyCount(): void {
    for (const listener of this.countListeners) listener();
  }

  private localAmong(userIds: readonly string[]): string[] {
    return userIds.filter((id) => this.local.isOnline(id));
  }

  /** Redis's answer and this node's own connections (which Redis may lag behind while it fails). */
  private withLocal(online: readonly string[], asked: readonly string[]): string[] {
    const set = new Set(online);
    return asked.filter((id) => set.has(id) || this.local.isOnline(id));
  }

  /**
   * Runs a script within `timeoutMs` and answers its reply after the reap's count (a reap means the online
   * count changed: every node hears it). Undefined when Redis failed or was late: what the script did may or
   * may not have happened then, so this node's share is written again in full on the next heartbeat.
   */
  private async run(s: Script, args: readonly string[]): Promise<unknown[] | undefined> {
    if (this.closed) return undefined;
    const [nodes, users, own] = this.keys;
    const argv = [nodes, users, own, this.nodePrefix, this.link.nodeId, ...args];
    const client = this.link.client;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis presence did not answer within ${this.options.timeoutMs} ms`)),
        this.options.timeoutMs,
      );
    });
    const call = client.evalsha(s.sha, 3, ...argv).catch((err: unknown) => {
      if (err instanceof Error && err.message.startsWith('NOSCRIPT')) return client.eval(s.lua, 3, ...argv);
      throw err;
    });
    try {
      const reply = await Promise.race([call, late]);
      if (this.failing) {
        this.failing = false;
        this.options.log.info('redis: presence is shared again');
      }
      if (!Array.isArray(reply)) throw new Error('unexpected reply from a Redis presence script');
      const [gone, ...rest] = reply as unknown[];
      if (Array.isArray(gone) && gone.length) {
        this.countChanged();
        this.unannounced({ gone: gone as string[] });
      }
      return rest;
    } catch (err) {
      call.catch(() => undefined);
      this.dirty = true;
      if (!this.failing) {
        this.failing = true;
        this.options.log.warn(
          { err },
          'redis: presence failed, answering from this node until Redis is back (not logged again till then)',
        );
      }
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}
