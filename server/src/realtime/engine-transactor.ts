import type { AsyncLogReader } from './pg-change-log';
import type { Transactor } from './transaction';

/** The change log's reads a pull needs, in one consistent view (SqliteTransactor and PgTransactor alike). */
export interface LogView {
  /** Everything with seq ≤ this is gone: a cursor below it cannot be caught up. */
  floor(): Promise<number>;
  /**
   * Everything after `after` and at most `upTo` for these audiences, page by page (`pageSize`: how many a
   * page asks for, a hint the SQLite reader sizes its index reads by).
   */
  reader(audiences: readonly string[], after: number, upTo: number, pageSize: number): AsyncLogReader;
}

/**
 * What the engine itself needs of its transactor beyond the features' `Transactor`: the seq counter, the
 * log's floor and pruning, the pull's view of the log, and whether the caller runs inside a commit. On
 * SQLite every promise here is settled when returned (the statements run synchronously); on PostgreSQL
 * they wait for the pool.
 */
export interface EngineTransactor extends Transactor {
  /** The last seq a pull may read up to: committed here, or delivered by the bus from another node. */
  currentSeq(): number;
  /** Highest pruned seq as last read. */
  floor(): number;
  /** Drops entries older than the retention. */
  prune(): Promise<void>;
  /** `fn` with the log's reads, never interleaved with a commit's half-done rows (one snapshot on PG). */
  readLog<T>(fn: (log: LogView) => Promise<T>): Promise<T>;
  /**
   * Lets the bus read what other nodes committed and this node has not delivered yet (REDIS_URL: a message
   * late or lost), so `currentSeq()` is as far as the log is. Settled at once without Redis.
   */
  catchUp(): Promise<void>;
  /** Whether the caller runs inside one of this transactor's commits or reads (`deps.db` must not). */
  readonly insideTransaction: boolean;
}
