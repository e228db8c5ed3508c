import type SQLite from 'better-sqlite3';
import type { Change, ChangeDraft } from '@campus/protocol';
import { statementCache, type StatementCache } from '../lib/db/statement-cache';
import { writeLockOf, type WriteLock } from '../lib/db/write-lock';
import type { Audience } from './audiences';
import type { ChangeBus, CommittedChange } from './bus';
import { changeLogStatements, type ChangeLogStatements } from './change-log';
import type { Query, SqlParam, Transactor, Tx } from './transaction';

export interface SqliteTransactorOptions {
  now: () => number;
  bus: ChangeBus;
}

/**
 * `Transactor` on better-sqlite3: the only code that knows about prepared statements and savepoints.
 * A commit takes the handle's WriteLock, runs `BEGIN IMMEDIATE` (the write lock of the file, so another
 * process cannot append between our reading the log's end and writing after it), adopts log entries
 * another process appended, runs `fn`, commits, then publishes the changes on the bus in seq order. Every
 * statement runs synchronously on a cached prepared statement; `Tx` methods return settled promises, so a
 * commit whose `fn` awaits only its `tx` completes within one turn of the event loop.
 */
export class SqliteTransactor implements Transactor {
  readonly log: ChangeLogStatements;
  private readonly statements: StatementCache;
  private readonly lock: WriteLock;
  /** The last seq handed out, the open transaction's included. */
  private seq: number;
  /** The last seq committed: what a pull may read up to. */
  private committed: number;
  private floorSeq: number;
  private pending: CommittedChange[] = [];
  /** A transaction of ours is open. */
  private open = false;
  private readonly tx: Tx;
  private txNow = 0;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly options: SqliteTransactorOptions,
  ) {
    this.log = changeLogStatements(sqlite);
    this.statements = statementCache(sqlite);
    this.lock = writeLockOf(sqlite);
    this.seq = this.committed = this.log.maxSeq();
    this.floorSeq = this.log.floor();
    this.tx = this.makeTx();
  }

  currentSeq(): number {
    return this.committed;
  }

  /** Highest pruned seq: a cursor below it cannot be caught up. */
  floor(): number {
    return this.floorSeq;
  }

  /** Drops entries older than the retention; skipped when a writer holds the handle (next time, then). */
  prune(): void {
    if (!this.lock.tryAcquire()) return;
    try {
      this.floorSeq = this.log.prune(this.options.now()) ?? this.floorSeq;
    } finally {
      this.lock.release();
    }
  }

  async commit<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    // Waiting for the lock from inside its holder would wait forever.
    if (this.lock.insideHolder) throw new Error('commit inside a commit: use tx.savepoint');
    if (!this.lock.tryAcquire()) await this.lock.acquire();
    try {
      return await this.lock.runAsHolder(() => this.transact(fn));
    } finally {
      this.lock.release();
    }
  }

  private async transact<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const start = this.seq;
    this.run('BEGIN IMMEDIATE');
    this.open = true;
    this.txNow = this.options.now();
    let result: T;
    try {
      this.adoptExternalEntries();
      result = await fn(this.tx);
      this.run('COMMIT');
    } catch (error) {
      this.abort(start);
      throw error;
    }
    this.open = false;
    this.publish();
    return result;
  }

  private abort(start: number): void {
    if (this.sqlite.inTransaction) this.run('ROLLBACK');
    this.open = false;
    this.seq = start;
    this.pending = [];
  }

  private publish(): void {
    this.committed = this.seq;
    const items = this.pending;
    if (!items.length) return;
    this.pending = [];
    this.options.bus.publish(items);
  }

  private emit(draft: ChangeDraft, audiences: readonly Audience[]): Change {
    if (!this.open) throw new Error('emit outside a transaction');
    const seq = this.seq + 1;
    const change = { ...draft, seq } as Change;
    const json = JSON.stringify(change);
    this.log.append(seq, change.type, json, this.options.now(), audiences);
    this.seq = seq;
    this.pending.push({ change, json, frame: Buffer.from(json), audiences });
    return change;
  }

  /**
   * Another process (the seed, an admin command) may have appended to the log since this one last wrote:
   * its entries are taken over (sent to their audiences with this commit) and the counter moves past them,
   * so seqs never collide and connected clients see no gap. One primary-key lookup per commit otherwise.
   */
  private adoptExternalEntries(): void {
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

  private statement(query: Query<unknown>): { stmt: SQLite.Statement; params: readonly unknown[] | null } {
    if (!this.open) throw new Error('the transaction is over: await every tx call inside commit');
    if (typeof query === 'string') return { stmt: this.statements.get(query), params: null };
    return { stmt: this.statements.get(query.sql), params: query.parameters };
  }

  private makeTx(): Tx {
    const tx: Tx = {
      all: async <Row>(query: Query<Row>, ...params: SqlParam[]): Promise<Row[]> => {
        const s = this.statement(query);
        return (s.params ? s.stmt.all(s.params) : s.stmt.all(...params)) as Row[];
      },
      first: async <Row>(query: Query<Row>, ...params: SqlParam[]): Promise<Row | undefined> => {
        const s = this.statement(query);
        return (s.params ? s.stmt.get(s.params) : s.stmt.get(...params)) as Row | undefined;
      },
      run: async (query: Query<unknown>, ...params: SqlParam[]): Promise<number> => {
        const s = this.statement(query);
        return (s.params ? s.stmt.run(s.params) : s.stmt.run(...params)).changes;
      },
      emit: (draft, audiences) => this.emit(draft, audiences),
      nextSeq: () => this.seq + 1,
      savepoint: async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
        if (!this.open) throw new Error('savepoint outside a transaction');
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
      now: 0,
    };
    // The engine's clock for the open transaction, read where a feature reads `tx.now`.
    Object.defineProperty(tx, 'now', { get: () => this.txNow });
    return tx;
  }
}
