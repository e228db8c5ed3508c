import type { CompiledQuery } from 'kysely';
import type { Change, ChangeDraft } from '@campus/protocol';
import type { Audience } from './audiences';

/**
 * The engine's transaction interface: everything a feature's server apply may do to the database. It is
 * asynchronous so a PostgreSQL implementation can stand behind it; the SQLite one (sqlite-transactor.ts)
 * runs each statement synchronously on a cached prepared statement and is the only code that knows about
 * prepared statements and savepoints. An apply awaits nothing but its `tx` (no network, no timers), so on
 * SQLite a whole commit runs without giving other work a turn in the middle of it.
 */

/** SQL text with `?` placeholders, branded with the row type it returns. Write portable SQL. */
export type Sql<Row = unknown> = string & { readonly __row?: Row };
/** Declares a statement and the shape of its rows (`sql<{ id: string }>('SELECT id FROM …')`). */
export function sql<Row = never>(text: string): Sql<Row> {
  return text as Sql<Row>;
}
export type SqlParam = string | number | bigint | null | Buffer;
/** A statement: our `Sql` or a Kysely-compiled query (for the rare dynamic one; compiling costs µs). */
export type Query<Row> = Sql<Row> | CompiledQuery<Row>;

export interface Tx {
  all<Row>(query: Query<Row>, ...params: SqlParam[]): Promise<Row[]>;
  first<Row>(query: Query<Row>, ...params: SqlParam[]): Promise<Row | undefined>;
  /** A write; resolves with the number of rows it changed. */
  run(query: Query<unknown>, ...params: SqlParam[]): Promise<number>;
  /**
   * A write whose row count is not needed, with nothing to wait for. On PostgreSQL it is sent at once,
   * pipelined behind the statements before it, and nobody waits for its answer: a burst of writes costs one
   * round trip, not one each, and every commit holds the deployment's write lock (pg-transactor.ts) for its
   * round trips. Its failure fails the next statement waited on, the enclosing savepoint's end or the
   * commit, never silently; it cannot be caught around the call (catch around `tx.savepoint` instead). On
   * SQLite it runs at once, like an awaited `run`.
   */
  queue(query: Query<unknown>, ...params: SqlParam[]): void;
  /**
   * Appends a change to the log with its audiences, in this transaction; it is published to live
   * connections after the outermost commit, and dropped with a savepoint that is rolled back.
   */
  emit(change: ChangeDraft, audiences: readonly Audience[]): Change;
  /** The seq the next `emit` of this transaction will get (a message row stores it before emitting). */
  nextSeq(): number;
  /** `fn` in a savepoint: if it throws, only its own writes and changes are undone, and the error rethrown. */
  savepoint<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * How many savepoints this transaction should hold at most; unset (SQLite): no limit. Told by the
   * transaction rather than the transactor so that a wrapper around the transactor cannot hide it. Code
   * applying many independent units in one commit, each in its savepoint (MutationBatch), commits the rest
   * in another transaction. Why PostgreSQL has one: pg-transactor.ts's PG_MAX_SAVEPOINTS.
   */
  readonly maxSavepoints?: number;
  /**
   * Replaces the stored payload of an earlier change whose content was withdrawn (a deleted confession's
   * text must not stay readable through pulls for the log's 30 days). The entry keeps its seq and
   * audiences; `replacement` is what a pull from before it now receives.
   */
  redact(seq: number, replacement: ChangeDraft): Promise<void>;
  /**
   * Runs `fn` once the outermost commit has committed and published its changes, outside the transaction
   * (never if it rolls back): work that must see the committed rows, such as a web push. A throw is dropped.
   */
  afterCommit(fn: () => void): void;
  /** The engine's clock for this transaction (ms). */
  readonly now: number;
}

/** Reading only: the statements of a `Tx` without writes or changes. */
export type ReadTx = Pick<Tx, 'all' | 'first' | 'now'>;

/** Opens transactions. `commit` inside a commit's `fn` is not allowed: use `tx.savepoint`. */
export interface Transactor {
  commit<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Reads that need no write transaction, never interleaved with an open commit (on SQLite: under the
   * write lock, without BEGIN IMMEDIATE, so an outside writer never blocks them on the file lock; on
   * PostgreSQL: a pooled query). Inside a commit, read through its `tx` instead.
   */
  read<T>(fn: (tx: ReadTx) => Promise<T>): Promise<T>;
}
