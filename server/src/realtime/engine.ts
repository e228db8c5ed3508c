import type SQLite from 'better-sqlite3';
import { inProcessChangeBus, inProcessEphemeralBus, type ChangeBus, type EphemeralBus } from './bus';
import { Hub } from './hub';
import { DEFAULT_REALTIME_OPTIONS, type RealtimeOptions } from './options';
import { changeLogStatements } from './change-log';
import { RedisChangeBus, RedisEphemeralBus, type RedisLink } from './redis-bus';
import { SqliteTransactor } from './sqlite-transactor';

export interface EngineOptions {
  now: () => number;
  pruneEveryMs?: number;
  realtime?: Partial<RealtimeOptions>;
  /** A bus subscriber that threw (it never reaches the committer). */
  onError?: (err: unknown) => void;
  /** REDIS_URL: the buses go through Redis to every node; unset, they stay in this process. */
  redis?: { link: RedisLink; gapCheckMs: number };
}

/**
 * The engine's parts for one database: the transactor (writes and the change log), the buses (in-process
 * here; Redis for several nodes) and this node's hub of live connections. server.ts puts `transactor` on
 * `deps.transactor` and `hub` on `deps.realtime`; the `/ws` route runs on the whole engine.
 */
export interface RealtimeEngine {
  readonly transactor: SqliteTransactor;
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

export function createRealtimeEngine(sqlite: SQLite.Database, options: EngineOptions): RealtimeEngine {
  const onError = options.onError ?? (() => undefined);
  const redis = options.redis;
  const redisChanges =
    redis &&
    new RedisChangeBus({
      link: redis.link,
      sqlite,
      log: changeLogStatements(sqlite),
      gapCheckMs: redis.gapCheckMs,
      onError,
    });
  const changes: ChangeBus = redisChanges ?? inProcessChangeBus(onError);
  const ephemeral: EphemeralBus = redis
    ? new RedisEphemeralBus(redis.link, onError)
    : inProcessEphemeralBus(onError);
  const transactor = new SqliteTransactor(sqlite, {
    now: options.now,
    bus: changes,
    deliveredSeq: redisChanges && (() => redisChanges.deliveredSeq()),
  });
  transactor.prune();
  const pruneTimer = setInterval(() => transactor.prune(), options.pruneEveryMs ?? 60 * 60 * 1000);
  pruneTimer.unref();
  const hub = new Hub(changes, ephemeral);
  hub.onClose(() => {
    clearInterval(pruneTimer);
    redisChanges?.close();
  });
  return {
    transactor,
    changes,
    ephemeral,
    hub,
    options: { ...DEFAULT_REALTIME_OPTIONS, ...options.realtime },
    drain: () => hub.drain(),
    close: () => hub.close(),
  };
}
