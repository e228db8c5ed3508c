import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { inProcessChangeBus, inProcessEphemeralBus, type ChangeBus, type EphemeralBus } from './bus';
import { Hub } from './hub';
import { DEFAULT_REALTIME_OPTIONS, type RealtimeOptions } from './options';
import { changeLogStatements } from './change-log';
import { RedisChangeBus, RedisEphemeralBus, type RedisLink } from './redis-bus';
import { RedisPresence } from './redis-presence';
import type { Logger } from '../lib/logger';
import type { EngineTransactor } from './engine-transactor';
import { pgChangeLog } from './pg-change-log';
import { PgTransactor } from './pg-transactor';
import { SqliteTransactor } from './sqlite-transactor';

export interface EngineOptions {
  now: () => number;
  pruneEveryMs?: number;
  realtime?: Partial<RealtimeOptions>;
  /** A bus subscriber that threw (it never reaches the committer). */
  onError?: (err: unknown) => void;
  /**
   * REDIS_URL: the buses go through Redis to every node, and so does who is online (`prefix` is
   * REDIS_PREFIX, for presence's keys); unset, they stay in this process.
   */
  redis?: { link: RedisLink; gapCheckMs: number; prefix: string; log: Logger };
}

/**
 * The engine's parts for one database: the transactor (writes and the change log), the buses (in-process
 * here; Redis for several nodes) and this node's hub of live connections. server.ts puts `transactor` on
 * `deps.transactor` and `hub` on `deps.realtime`; the `/ws` route runs on the whole engine.
 */
export interface RealtimeEngine {
  readonly transactor: EngineTransactor;
  readonly changes: ChangeBus;
  readonly ephemeral: EphemeralBus;
  readonly hub: Hub;
  readonly options: RealtimeOptions;
  /**
   * Before close() on a drain: mutations received so far are committed and acknowledged, then every `/ws`
   * socket closes with 1012 so its client reconnects to another node at once.
   */
  drain(): Promise<void>;
  close(): void;
}

/** The engine on a SQLite handle: created synchronously (the CLI's commands use it too). */
export function createRealtimeEngine(sqlite: SQLite.Database, options: EngineOptions): RealtimeEngine {
  const onError = options.onError ?? (() => undefined);
  const redis = options.redis;
  const redisChanges =
    redis &&
    new RedisChangeBus({
      link: redis.link,
      source: { kind: 'sqlite', sqlite, log: changeLogStatements(sqlite) },
      gapCheckMs: redis.gapCheckMs,
      onError,
    });
  const changes: ChangeBus = redisChanges ?? inProcessChangeBus(onError);
  const transactor = new SqliteTransactor(sqlite, {
    now: options.now,
    bus: changes,
    deliveredSeq: redisChanges && (() => redisChanges.deliveredSeq()),
    catchUp: redisChanges && (() => redisChanges.catchUp()),
  });
  return assembleEngine(transactor, changes, redisChanges, options);
}

/**
 * The engine on PostgreSQL (DATABASE_URL), for several nodes on one database: the pool must parse BIGINT
 * as numbers (lib/db/postgres.ts's do). Asynchronous: the log's end is read before anything starts.
 */
export async function createPostgresEngine(pool: pg.Pool, options: EngineOptions): Promise<RealtimeEngine> {
  const onError = options.onError ?? (() => undefined);
  const redis = options.redis;
  const log = pgChangeLog(pool);
  const redisChanges =
    redis &&
    new RedisChangeBus({
      link: redis.link,
      source: { kind: 'postgres', log, startSeq: await log.maxSeq() },
      gapCheckMs: redis.gapCheckMs,
      onError,
    });
  const changes: ChangeBus = redisChanges ?? inProcessChangeBus(onError);
  let transactor: PgTransactor;
  try {
    transactor = await PgTransactor.open(pool, {
      now: options.now,
      bus: changes,
      deliveredSeq: redisChanges && (() => redisChanges.deliveredSeq()),
      catchUp: redisChanges && (() => redisChanges.catchUp()),
    });
  } catch (err) {
    redisChanges?.close();
    throw err;
  }
  return assembleEngine(transactor, changes, redisChanges, options);
}

/** The parts around a transactor: the buses, the prune timer, the hub and shared presence. */
function assembleEngine(
  transactor: EngineTransactor,
  changes: ChangeBus,
  redisChanges: RedisChangeBus | undefined,
  options: EngineOptions,
): RealtimeEngine {
  const onError = options.onError ?? (() => undefined);
  const redis = options.redis;
  const ephemeral: EphemeralBus = redis
    ? new RedisEphemeralBus(redis.link, onError)
    : inProcessEphemeralBus(onError);
  // On SQLite the prune is done when the call returns; on PostgreSQL a failure is reported, never thrown.
  const prune = () => void transactor.prune().catch(onError);
  prune();
  const pruneTimer = setInterval(prune, options.pruneEveryMs ?? 60 * 60 * 1000);
  pruneTimer.unref();
  const hub = new Hub(changes, ephemeral);
  const realtime = { ...DEFAULT_REALTIME_OPTIONS, ...options.realtime };
  if (redis) {
    const shared = new RedisPresence(
      redis.link,
      hub,
      // Presence answers wait at most a second for Redis, then fall back to this node's own.
      { leaseMs: realtime.presenceLeaseMs, timeoutMs: 1000, log: redis.log },
      redis.prefix,
    );
    hub.sharePresence(shared);
  }
  hub.onClose(() => {
    clearInterval(pruneTimer);
    redisChanges?.close();
    hub.sharedPresence?.close();
  });
  return {
    transactor,
    changes,
    ephemeral,
    hub,
    options: realtime,
    drain: () => hub.drain(),
    close: () => hub.close(),
  };
}
