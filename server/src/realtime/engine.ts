import type SQLite from 'better-sqlite3';
import { inProcessChangeBus, inProcessEphemeralBus, type ChangeBus, type EphemeralBus } from './bus';
import { Hub } from './hub';
import { DEFAULT_REALTIME_OPTIONS, type RealtimeOptions } from './options';
import { SqliteTransactor } from './sqlite-transactor';

export interface EngineOptions {
  now: () => number;
  pruneEveryMs?: number;
  realtime?: Partial<RealtimeOptions>;
  /** A bus subscriber that threw (it never reaches the committer). */
  onError?: (err: unknown) => void;
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
  const changes = inProcessChangeBus(onError);
  const ephemeral = inProcessEphemeralBus(onError);
  const transactor = new SqliteTransactor(sqlite, { now: options.now, bus: changes });
  transactor.prune();
  const pruneTimer = setInterval(() => transactor.prune(), options.pruneEveryMs ?? 60 * 60 * 1000);
  pruneTimer.unref();
  const hub = new Hub(changes, ephemeral);
  hub.onClose(() => clearInterval(pruneTimer));
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
