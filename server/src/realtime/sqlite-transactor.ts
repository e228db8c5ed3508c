import type SQLite from 'better-sqlite3';
import type { Change, ChangeDraft } from '@campus/protocol';
import { statementCache, type StatementCache } from '../lib/db/statement-cache';
import { writeLockOf, type WriteLock } from '../lib/db/write-lock';
import type { Audience } from './audiences';
import type { ChangeBus, CommittedChange } from './bus';
import { changeLogStatements, type ChangeLogStatements, type LogReader } from './change-log';
import type { EngineTransactor, LogView } from './engine-transactor';
import type { AsyncLogReader } from './pg-change-log';
import type { Query, ReadTx, SqlParam, Tx } from './transaction';

export interface SqliteTransactorOptions {
  now: () => number;
  bus: ChangeBus;
  /**
   * The last seq this node's bus has delivered, changes other nodes committed included (Redis): a pull
   * reads up to it, so what went out live before the pull is in the pull. Unset: this node's commits only.
   */
  deliveredSeq?: () => number;
  /** Lets the bus read what it missed from the log (REDIS_URL); see EngineTransactor.catchUp. */
  catchUp?: () => Promise<void>;
}

/** Whether the commit or read a `tx` was handed out for is still running. */
interface TxScope {
  open: boolean;
}

/**
 * `Transactor` on better-sqlite3: the only code that knows about prepared statements and savepoints.
 * A commit takes the handle's WriteLock, runs `BEGIN IMMEDIATE` (the write lock of the file, so another
 * process cannot append between our reading the log's end and writing after it), adopts log entries
 * another process appended, runs `fn`, commits, then publishes the changes on the bus in seq order. Every
 * statement runs synchronously on a cached prepared statement; `Tx` methods return settled promises, so a
 * commit whose `fn` awaits only its `tx` completes within one turn of the event loop.
 */
export class SqliteTransactor implements EngineTransactor {
  readonly log: ChangeLogStatements;
  private readonly statements: StatementCache;
  private readonly lock: WriteLock;
  /** The last seq handed out, the open transaction's included. */
  private seq: number;
  /** The last seq committed: what a pull may read up to. */
  private committed: number;
  private floorSeq: number;
  private pending: CommittedChange[] = [];
  /** The open commit's afterCommit callbacks. */
  private after: (() => void)[] = [];
  /** `PRAGMA data_version` (this handle's count of other connections' commits) when the log's end was last read. */
  private seenDataVersion: number | undefined;
  private readonly dataVersion: SQLite.Statement<[], number>;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly options: SqliteTransactorOptions,
  ) {
    this.log = changeLogStatements(sqlite);
    this.statements = statementCache(sqlite);
    this.lock = writeLockOf(sqlite);
    this.dataVersion = sqlite.prepare<[], number>('PRAGMA data_version').pluck();
    this.seq = this.committed = this.log.maxSeq();
    this.floorSeq = this.log.floor();
  }

  currentSeq(): number {
    const delivered = this.options.deliveredSeq?.();
    return delivered !== undefined && delivered > this.committed ? delivered : this.committed;
  }

  /** Highest pruned seq: a cursor below it cannot be caught up. */
  floor(): number {
    return this.floorSeq;
  }

  /**
   * Drops entries older than the retention; skipped when a writer holds the handle (next time, then).
   * Synchronous: done when this returns (the promise is for EngineTransactor).
   */
  async prune(): Promise<void> {
    if (!this.lock.tryAcquire()) return;
    try {
      this.floorSeq = this.log.prune(this.options.now()) ?? this.floorSeq;
    } finally {
      this.lock.release();
    }
  }

  /**
   * The log's reads under the write lock (no commit is half done meanwhile), each a synchronous statement
   * behind a settled promise: with the lock free, `fn` starts at once.
   */
  readLog<T>(fn: (log: LogView) => Promise<T>): Promise<T> {
    return this.holdingLock('readLog inside a commit or read', () => fn(this.logView));
  }

  catchUp(): Promise<void> {
    return this.options.catchUp?.() ?? Promise.resolve();
  }

  get insideTransaction(): boolean {
    return this.lock.insideHolder;
  }

  private readonly logView: LogView = {
    // The floor this handle last pruned to, as the pull always read it (no query).
    floor: async () => this.floorSeq,
    reader: (audiences, after, upTo, pageSize) =>
      settledReader(this.log.reader(audiences, after, pageSize), upTo),
  };

  commit<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.holdingLock('commit inside a commit: use tx.savepoint', () => this.transact(fn));
  }

  read<T>(fn: (tx: ReadTx) => Promise<T>): Promise<T> {
    return this.holdingLock('read inside a commit or read: use its tx', () => this.snapshot(fn));
  }

  /** Runs `work` as the write lock's holder, after the commits and reads that asked before (FIFO). */
  private async holdingLock<T>(nested: string, work: () => Promise<T>): Promise<T> {
    // Waiting for the lock from inside its holder would wait forever.
    if (this.lock.insideHolder) throw new Error(nested);
    if (!this.lock.tryAcquire()) await this.lock.acquire();
    try {
      return await this.lock.runAsHolder(work);
    } finally {
      this.lock.release();
    }
  }

  private async transact<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const start = this.seq;
    this.run('BEGIN IMMEDIATE');
    // A fresh scope per commit: a call left un-awaited by an earlier commit fails instead of joining this one.
    const scope: TxScope = { open: true };
    let result: T;
    try {
      this.adoptExternalEntries();
      result = await fn(this.makeTx(scope, this.options.now()));
      this.run('COMMIT');
    } catch (error) {
      scope.open = false;
      this.abort(start);
      throw error;
    }
    scope.open = false;
    this.publish();
    this.runAfterCommit();
    return result;
  }

  /**
   * Reads in a deferred transaction: one snapshot for all of `fn`'s statements, no file write lock (an
   * outside writer such as the seed CLI never makes it wait), and no commit's half-done rows, since it
   * holds the handle's WriteLock like a commit does.
   */
  private async snapshot<T>(fn: (tx: ReadTx) => Promise<T>): Promise<T> {
    const scope: TxScope = { open: true };
    this.run('BEGIN DEFERRED');
    try {
      return await fn(this.makeReadTx(scope, this.options.now()));
    } finally {
      scope.open = false;
      if (this.sqlite.inTransaction) this.run('COMMIT');
    }
  }

  private abort(start: number): void {
    try {
      if (this.sqlite.inTransaction) this.run('ROLLBACK');
    } finally {
      this.seq = start;
      this.pending = [];
      this.after = [];
      // Entries adopted by the rolled-back commit were dropped with it: the next commit reads the log again.
      this.seenDataVersion = undefined;
    }
  }

  /** The committed transaction's afterCommit callbacks, in order (after its changes were published). */
  private runAfterCommit(): void {
    const after = this.after;
    if (!after.length) return;
    this.after = [];
    for (const fn of after) {
      try {
        fn();
      } catch {
        // Dropped, as Tx.afterCommit says: the commit stands.
      }
    }
  }

  private publish(): void {
    this.committed = this.seq;
    const items = this.pending;
    if (!items.length) return;
    this.pending = [];
    this.options.bus.publish(items);
  }

  private emit(draft: ChangeDraft, audiences: readonly Audience[]): Change {
    const seq = this.seq + 1;
    const change = { ...draft, seq } as Change;
    const json = JSON.stringify(change);
    this.log.append(seq, change.type, json, this.options.now(), audiences);
    this.seq = seq;
    this.pending.push({ change, json, frame: Buffer.from(json), audiences });
    return change;
  }

  /** Rewrites a logged change's payload in place; one of this commit's own is also published rewritten. */
  private redact(seq: number, replacement: ChangeDraft): void {
    const change = { ...replacement, seq } as Change;
    const json = JSON.stringify(change);
    this.log.redact(seq, change.type, json);
    const queued = this.pending.findIndex((item) => item.change.seq === seq);
    if (queued >= 0)
      this.pending[queued] = { ...this.pending[queued]!, change, json, frame: Buffer.from(json) };
  }

  /**
   * Another process (the seed, an admin command) may have appended to the log since this one last wrote:
   * its entries are taken over (sent to their audiences with this commit) and the counter moves past them,
   * so seqs never collide and connected clients see no gap. One pragma read per commit otherwise.
   */
  private adoptExternalEntries(): void {
    // SQLite's data_version moves only when another connection commits (never for this handle's own
    // commits): while it stands still nothing can have been appended, and the log's end is not read.
    const version = this.dataVersion.get();
    if (version === this.seenDataVersion) return;
    this.seenDataVersion = version;
    const latest = this.log.maxSeq();
    if (latest <= this.seq) return;
    for (const entry of this.log.entriesAfter(this.seq)) {
      this.pending.push({
        change: JSON.parse(entry.payload) as Change,
        json: entry.payload,
        frame: Buffer.from(entry.payload),
        audiences: entry.audiences,
      });
    }
    this.seq = latest;
  }

  private run(sqlText: string): void {
    this.statements.get(sqlText).run();
  }

  private undoSavepoint(seq: number, mark: number): void {
    // Some errors (SQLITE_FULL, an interrupt) end the whole transaction; the commit then rolls back.
    if (this.sqlite.inTransaction) {
      this.run('ROLLBACK TO sp');
      this.run('RELEASE sp');
    }
    this.seq = seq;
    this.pending.length = mark;
  }

  private statement(
    scope: TxScope,
    query: Query<unknown>,
  ): { stmt: SQLite.Statement; params: readonly unknown[] | null } {
    if (!scope.open) throw new Error('the transaction is over: await every tx call inside commit or read');
    if (typeof query === 'string') return { stmt: this.statements.get(query), params: null };
    return { stmt: this.statements.get(query.sql), params: query.parameters };
  }

  /** The reading half of a `tx`: one object per commit or read (a few closures, not one per statement). */
  private makeReadTx(scope: TxScope, now: number): ReadTx {
    return {
      all: async <Row>(query: Query<Row>, ...params: SqlParam[]): Promise<Row[]> => {
        const s = this.statement(scope, query);
        return (s.params ? s.stmt.all(s.params) : s.stmt.all(...params)) as Row[];
      },
      first: async <Row>(query: Query<Row>, ...params: SqlParam[]): Promise<Row | undefined> => {
        const s = this.statement(scope, query);
        return (s.params ? s.stmt.get(s.params) : s.stmt.get(...params)) as Row | undefined;
      },
      now,
    };
  }

  private makeTx(scope: TxScope, now: number): Tx {
    const ensureOpen = (what: string) => {
      if (!scope.open) throw new Error(`${what} outside its transaction: await every tx call inside commit`);
    };
    const tx: Tx = {
      ...this.makeReadTx(scope, now),
      run: async (query: Query<unknown>, ...params: SqlParam[]): Promise<number> => {
        const s = this.statement(scope, query);
        return (s.params ? s.stmt.run(s.params) : s.stmt.run(...params)).changes;
      },
      // Synchronous: a failure throws inside the caller's fn, as an awaited `run` would.
      queue: (query: Query<unknown>, ...params: SqlParam[]): void => {
        const s = this.statement(scope, query);
        if (s.params) s.stmt.run(s.params);
        else s.stmt.run(...params);
      },
      emit: (draft, audiences) => {
        ensureOpen('emit');
        return this.emit(draft, audiences);
      },
      nextSeq: () => this.seq + 1,
      afterCommit: (fn) => {
        ensureOpen('afterCommit');
        this.after.push(fn);
      },
      redact: async (seq, replacement) => {
        ensureOpen('redact');
        this.redact(seq, replacement);
      },
      savepoint: async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
        ensureOpen('savepoint');
        const seq = this.seq;
        const mark = this.pending.length;
        this.run('SAVEPOINT sp');
        try {
          const result = await fn(tx);
          this.run('RELEASE sp');
          return result;
        } catch (error) {
          this.undoSavepoint(seq, mark);
          throw error;
        }
      },
    };
    return tx;
  }
}

/**
 * change-log.ts's synchronous reader behind settled promises, without what lies past `upTo` (rows another
 * process appended, or a seq not yet delivered here): the page that reaches past it is the last.
 */
function settledReader(reader: LogReader, upTo: number): AsyncLogReader {
  let ended = false;
  return {
    next: async (limit) => {
      if (ended) return [];
      const rows = reader.next(limit);
      while (rows.length && rows[rows.length - 1]!.seq > upTo) {
        rows.pop();
        ended = true;
      }
      return rows;
    },
    hasMore: async () => !ended && reader.hasMore(),
  };
}
