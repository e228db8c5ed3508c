import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Change, ChangeDraft } from '@campus/protocol';
import { WriteLock } from '../lib/db/write-lock';
import type { Audience } from './audiences';
import type { ChangeBus, CommittedChange } from './bus';
import {
  appendStatement,
  entriesBetweenSql,
  floorSeq,
  pgChangeLog,
  pruneEntries,
  redactEntry,
  type LogAppend,
  type PgChangeLog,
  type PgLogView,
} from './pg-change-log';
import type { EngineTransactor } from './engine-transactor';
import type { Query, ReadTx, SqlParam, Tx } from './transaction';

export interface PgTransactorOptions {
  now: () => number;
  bus: ChangeBus;
  /**
   * The last seq this node's bus has delivered, other nodes' commits included (Redis): a pull reads up to
   * it, and a commit adopts only what was committed after it (the rest reached this node already).
   */
  deliveredSeq?: () => number;
  /** Lets the bus read what it missed from the log (REDIS_URL); see EngineTransactor.catchUp. */
  catchUp?: () => Promise<void>;
  /**
   * The advisory lock that serializes commits across the deployment. Default: a constant class with
   * change_log's oid, so deployments (or test schemas) sharing one database never wait for each other.
   */
  lockKey?: bigint;
  /**
   * A commit's session is ended by PostgreSQL when it sits idle inside its transaction this long (a node
   * frozen or cut off mid-commit): it would otherwise hold the lock every node's commits wait for.
   */
  idleInTransactionMs?: number;
  /**
   * Whether a commit's statements that nobody waits on (SAVEPOINT, the log's appends, `tx.queue`'s writes,
   * COMMIT after the last append) are sent without waiting for the answers before them, in pg's pipeline
   * mode on the commit's connection. Default on. Off: each waits for the one before, one round trip each,
   * as before pipelining (bench/store-throughput.ts's baseline).
   */
  pipeline?: boolean;
}

/**
 * What a commit sent without waiting for the answer: the last such statement (answers come in order, so
 * when it is answered all are), and the first failure among them. One per commit, so an answer arriving
 * late (a dropped connection errs every queued statement) can never mark the next commit.
 */
interface Unawaited {
  last?: Promise<void>;
  failure?: { error: unknown };
  /** Without pipelining: the last statement issued, answered or not, which the next one waits for. */
  tail?: Promise<void>;
}

/** Whether the commit or read a `tx` was handed out for is still running. */
interface TxScope {
  open: boolean;
}

/** "ct_l" in ASCII: the advisory lock's class, with change_log's oid as the object. */
const LOCK_CLASS = 0x63745f6cn;
/**
 * Savepoints one commit should hold at most (Tx.maxSavepoints; MutationBatch commits a larger batch in
 * several transactions). A savepoint that writes is a subtransaction with an xid of its own, and a backend
 * keeps at most 64 of its transaction's in shared memory (PGPROC_MAX_CACHED_SUBXIDS). One more and the cache
 * overflows: until that transaction ends, every snapshot taken anywhere in the cluster (every node's
 * connections) is marked overflowed and must look xids up in pg_subtrans, the "subtransaction SLRU
 * overflow" known to collapse throughput. A loaded batch was about 156 (docs/deploying.md); 60 leaves a
 * margin below 64. The price: such a batch takes three commits (three WAL flushes) instead of one.
 */
export const PG_MAX_SAVEPOINTS = 60;
/** Distinct statement texts prepared by name, at most: beyond, a text built at run time would leak. */
const MAX_NAMED = 2000;

/** A statement's PostgreSQL text and, for our `Sql` texts, the name pg prepares it under per connection. */
interface Translated {
  text: string;
  name?: string;
}

/**
 * For the whole process, not per transactor: a name is prepared per connection, and transactors may share
 * a pool, so one name must never stand for two texts.
 */
const translations = new Map<string, Translated>();

/**
 * `Transactor` on PostgreSQL (DATABASE_URL), for several nodes sharing one database.
 *
 * The change log's seqs must be contiguous and become visible in seq order on every node: a pull reads
 * "everything up to the committed seq" and the Redis bus fills a gap in its feed from the log, so seq 105
 * must never be visible while 104 may still commit. Every commit therefore starts with
 * `pg_advisory_xact_lock` (one writer of the log at a time across the deployment, held until COMMIT or
 * ROLLBACK) and continues from `max(seq)` read after taking it: commit order is seq order, and
 * `tx.nextSeq()` stays synchronous. READ COMMITTED on purpose: each statement after the lock sees every
 * commit before it (REPEATABLE READ would keep the snapshot taken while waiting for the lock).
 *
 * On this node, commits queue on a FIFO lock first (one pooled connection waits on the advisory lock, not
 * all of them), and the changes are published on the bus after COMMIT, in seq order, before the next commit
 * starts. `emit` is synchronous, so appends are queued and written in one statement before the
 * transaction's next statement, savepoint or COMMIT. A failed statement aborts a PostgreSQL transaction (on
 * SQLite only the statement is undone): recover from one only around `tx.savepoint`.
 *
 * The lock is held for every round trip of the commit, so the deployment's write rate is about one over a
 * commit's round trips. What nobody needs an answer to is therefore pipelined (sent at once, behind what was
 * sent before, on the same connection): SAVEPOINT goes out with the savepoint's first statement, the log's
 * appends and `tx.queue`'s writes with the next statement waited on, COMMIT with the last append. The
 * answers come back in order, so a failure among them shows at the next statement waited on (PostgreSQL
 * has aborted the transaction, and that statement fails too); it is thrown there as the cause, and a
 * savepoint waits for its own writes' answers at its end (RELEASE), so a failure undoes only it, as before.
 * The lock stays over the whole commit rather than only seq assignment and the append: the features count
 * on commits running one at a time, as on SQLite (exactly-once, membership and limit checks read, then
 * write), and `nextSeq()` goes into their rows and payloads before anything is appended.
 */
export class PgTransactor implements EngineTransactor {
  /** The log's reads on the pool (the Redis bus's gap reads; `readLog` for a pull in one snapshot). */
  readonly log: PgChangeLog;
  private readonly lock = new WriteLock();
  /** Marks the async context of a commit or read: opening another from inside would wait for itself. */
  private readonly inside = new AsyncLocalStorage<TxScope>();
  private readonly beginSql: string;
  /** The last seq handed out, the open transaction's included. */
  private seq: number;
  /** The last seq this node committed or adopted: what a pull may read up to (without Redis). */
  private committed: number;
  private floorSeq: number;
  private pending: CommittedChange[] = [];
  /** The open commit's afterCommit callbacks. */
  private after: (() => void)[] = [];
  /** Emitted but not yet written: flushed before the transaction's next statement. */
  private unflushed: LogAppend[] = [];
  /** The open commit's statements sent without waiting for them. */
  private unawaited: Unawaited = {};
  private pruning = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly options: PgTransactorOptions,
    lockKey: bigint,
    seq: number,
    floor: number,
  ) {
    this.log = pgChangeLog(pool);
    this.seq = this.committed = seq;
    this.floorSeq = floor;
    const idle = Math.max(0, Math.floor(options.idleInTransactionMs ?? 30_000));
    // One round trip: the key and the timeout are numbers of ours, safe to write into the text.
    this.beginSql =
      `BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${idle}; ` +
      `SELECT pg_advisory_xact_lock(${lockKey.toString()})`;
  }

  /**
   * Reads where the log stands. The pool must hand BIGINT back as numbers (lib/db/postgres.ts's pools do):
   * feature code compares seqs and timestamps as numbers, as SQLite returns them.
   */
  static async open(pool: pg.Pool, options: PgTransactorOptions): Promise<PgTransactor> {
    const { rows } = await pool.query<{ n: unknown; oid: unknown; max: unknown }>(
      `SELECT 1::bigint AS n, 'change_log'::regclass::oid::bigint AS oid, max(seq) AS max FROM change_log`,
    );
    const row = rows[0]!;
    if (typeof row.n !== 'number')
      throw new Error('PgTransactor needs a pool that parses BIGINT as number (see lib/db/postgres.ts)');
    const lockKey = options.lockKey ?? (LOCK_CLASS << 32n) | BigInt(Number(row.oid));
    const floor = await floorSeq(pool);
    return new PgTransactor(pool, options, lockKey, row.max === null ? 0 : Number(row.max), floor);
  }

  currentSeq(): number {
    const delivered = this.options.deliveredSeq?.();
    return delivered !== undefined && delivered > this.committed ? delivered : this.committed;
  }

  catchUp(): Promise<void> {
    return this.options.catchUp?.() ?? Promise.resolve();
  }

  /** Highest pruned seq as this node last read it: a cursor below it cannot be caught up. */
  floor(): number {
    return this.floorSeq;
  }

  /** Reads the floor again (another node may have pruned since). */
  async refreshFloor(): Promise<number> {
    this.floorSeq = await floorSeq(this.pool);
    return this.floorSeq;
  }

  /**
   * Drops entries older than the retention, then rereads the floor (another node may have pruned). Takes
   * no advisory lock: it never deletes the newest entry, which is all a commit reads, so commits go on.
   */
  async prune(): Promise<void> {
    if (this.pruning) return;
    this.pruning = true;
    try {
      await this.onClient(async (client) => {
        await client.query('BEGIN');
        await pruneEntries(client, this.options.now());
        const result = await client.query('COMMIT');
        if (result.command !== 'COMMIT') throw new Error('prune: PostgreSQL rolled the transaction back');
      });
      await this.refreshFloor();
    } finally {
      this.pruning = false;
    }
  }

  commit<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.exclusive('commit inside a commit: use tx.savepoint', () => this.transact(fn));
  }

  async read<T>(fn: (tx: ReadTx) => Promise<T>): Promise<T> {
    if (this.insideTransaction) throw new Error('read inside a commit or read: use its tx');
    return this.snapshot((client, scope) => fn(this.makeReadTx(client, scope, this.options.now())));
  }

  /**
   * The change log's reads in one REPEATABLE READ snapshot: a pull checks the floor and reads its pages in
   * the same view, so a prune on another node cannot take entries from between the check and the pages.
   */
  async readLog<T>(fn: (log: PgLogView) => Promise<T>): Promise<T> {
    if (this.insideTransaction) throw new Error('readLog inside a commit or read');
    // A page reads each audience along its index and stops at the page's size. Where the visibility map
    // lags behind the appends (before autovacuum comes by), the planner prefers a bitmap scan, which reads
    // an audience's whole backlog (all students: every confession) for every page.
    return this.snapshot((client) => fn(pgChangeLog(client)), 'SET LOCAL enable_bitmapscan = off');
  }

  /** Whether the caller runs inside one of this transactor's commits or reads (a Kysely guard can refuse). */
  get insideTransaction(): boolean {
    return this.inside.getStore()?.open === true;
  }

  /** This node's commits one at a time, FIFO (state below is per node; the advisory lock is per cluster). */
  private async exclusive<T>(nested: string, work: () => Promise<T>): Promise<T> {
    if (this.insideTransaction) throw new Error(nested);
    if (!this.lock.tryAcquire()) await this.lock.acquire();
    try {
      return await work();
    } finally {
      this.lock.release();
    }
  }

  private async transact<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const start = this.seq;
    const scope: TxScope = { open: true };
    this.unawaited = {};
    let result: T;
    try {
      result = await this.onClient(async (client) => {
        try {
          await this.begin(client);
          const value = await this.inside.run(scope, () =>
            fn(this.makeTx(client, scope, this.options.now())),
          );
          // The last append and COMMIT in one round trip.
          this.flush(client);
          const done = await this.ask(client, { text: 'COMMIT' });
          // An error swallowed inside `fn` aborted the transaction: PostgreSQL then answers COMMIT by
          // rolling back, and nothing of it may be published.
          if (done.command !== 'COMMIT')
            throw new Error('the transaction failed earlier and was rolled back');
          return value;
        } finally {
          scope.open = false;
          // Without pipelining a statement may still wait its turn: onClient's ROLLBACK must come after it,
          // or it would run after the transaction, on its own. (Pipelined, everything is sent already.)
          await this.unawaited.tail;
        }
      }, this.options.pipeline !== false);
    } catch (error) {
      // Rolled back (onClient), or the connection dropped: a COMMIT that did land is adopted by the next
      // commit, which reads the log from `start` on.
      this.seq = start;
      this.pending = [];
      this.unflushed = [];
      this.after = [];
      throw error;
    }
    this.publish();
    this.runAfterCommit();
    return result;
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

  /** Takes the lock, then reads the log's end and adopts what was committed since this node last looked. */
  private async begin(client: pg.PoolClient): Promise<void> {
    const from = Math.max(this.seq, this.options.deliveredSeq?.() ?? 0);
    // One round trip (the simple protocol runs several statements; `from` is a seq of ours). The reads come
    // after the lock: under READ COMMITTED they see every commit that held it before this one.
    const results = (await client.query(
      `${this.beginSql}; SELECT max(seq) AS seq FROM change_log; ${adoptSql(from)}`,
    )) as unknown as pg.QueryResult[];
    const latest = Number((results[3]?.rows[0] as { seq: number | null } | undefined)?.seq ?? 0);
    // Never below what this node has seen (the tables emptied under a running node): it keeps counting on.
    if (latest <= this.seq) return;
    // Other nodes' entries (and a CLI's) since `from`: published with this commit, so this node's bus stays
    // gapless even before Redis brings them; the Redis bus skips what it delivered already.
    for (const entry of (results[4]?.rows ?? []) as { payload: string; audiences: Audience[] }[]) {
      this.pending.push({
        change: JSON.parse(entry.payload) as Change,
        json: entry.payload,
        frame: Buffer.from(entry.payload),
        audiences: entry.audiences,
      });
    }
    this.seq = latest;
  }

  /**
   * Runs `work` on a pooled client; rolls back on failure and destroys a client that cannot. `pipelined`:
   * in pg's pipeline mode while checked out (a commit), back to one statement at a time for the pool's
   * other users (Kysely) before it returns to the pool.
   */
  private async onClient<T>(work: (client: pg.PoolClient) => Promise<T>, pipelined = false): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    // pg's pool listens for a client's errors only while it is idle: a connection dropping while checked
    // out (between two statements) would otherwise be an uncaught 'error' event, which ends the process.
    const onError = () => (broken = true);
    client.on('error', onError);
    if (pipelined) setPipelineMode(client, true);
    try {
      return await work(client);
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // The connection is gone (or unusable): it must not go back into the pool.
        broken = true;
      }
      throw error;
    } finally {
      // Every statement sent has been answered by now (COMMIT or ROLLBACK was the last, waited on).
      if (pipelined) setPipelineMode(client, false);
      client.removeListener('error', onError);
      client.release(broken);
    }
  }

  /** A read-only REPEATABLE READ transaction: every statement of `fn` sees one snapshot. */
  private snapshot<T>(
    fn: (client: pg.PoolClient, scope: TxScope) => Promise<T>,
    settings?: string,
  ): Promise<T> {
    const scope: TxScope = { open: true };
    const begin = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';
    return this.onClient(async (client) => {
      try {
        await client.query(settings ? `${begin}; ${settings}` : begin);
        const result = await this.inside.run(scope, () => fn(client, scope));
        await client.query('COMMIT');
        return result;
      } finally {
        scope.open = false;
      }
    });
  }

  private publish(): void {
    this.committed = this.seq;
    const items = this.pending;
    if (!items.length) return;
    this.pending = [];
    this.options.bus.publish(items);
  }

  /**
   * Sends the queued appends (one statement) without waiting: before any other statement, so reads see
   * them, and answered with the next statement waited on.
   */
  private flush(client: pg.PoolClient): void {
    if (!this.unflushed.length) return;
    const entries = this.unflushed;
    this.unflushed = [];
    this.send(client, appendStatement(entries));
  }

  /** Issues a statement of the open commit: at once when pipelined, else after the one before it. */
  private issue<Row extends pg.QueryResultRow>(
    client: pg.PoolClient,
    statement: pg.QueryConfig,
  ): Promise<pg.QueryResult<Row>> {
    if (this.options.pipeline !== false) return client.query<Row>(statement);
    // One at a time, in order, as before pipelining: pg's own queue for a busy client is deprecated.
    const sent = this.unawaited;
    const result = (sent.tail ?? Promise.resolve()).then(() => client.query<Row>(statement));
    sent.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Sends a statement of the open commit without waiting for its answer (see the class comment). */
  private send(client: pg.PoolClient, statement: pg.QueryConfig): void {
    const sent = this.unawaited;
    sent.last = this.issue(client, statement).then(
      () => undefined,
      (error: unknown) => {
        sent.failure ??= { error };
      },
    );
  }

  /**
   * A statement of the open commit whose answer is waited for. Everything sent before it is answered
   * first: if one of those failed, PostgreSQL aborted the transaction and this one fails too, and the
   * earlier failure (the cause) is what is thrown.
   */
  private async ask<Row extends pg.QueryResultRow>(
    client: pg.PoolClient,
    statement: pg.QueryConfig,
  ): Promise<pg.QueryResult<Row>> {
    const sent = this.unawaited;
    let result: pg.QueryResult<Row>;
    try {
      result = await this.issue<Row>(client, statement);
    } catch (error) {
      throw sent.failure ? sent.failure.error : error;
    }
    // Not expected (a failure aborts the transaction, so this one would have failed), but never lost.
    if (sent.failure) throw sent.failure.error;
    return result;
  }

  /** Waits until everything the open commit sent is answered; throws the first failure among it. */
  private async settle(): Promise<void> {
    const sent = this.unawaited;
    if (sent.last) await sent.last;
    if (sent.failure) throw sent.failure.error;
  }

  private emit(draft: ChangeDraft, audiences: readonly Audience[]): Change {
    const seq = this.seq + 1;
    const change = { ...draft, seq } as Change;
    const json = JSON.stringify(change);
    this.unflushed.push({ seq, type: change.type, payload: json, createdMs: this.options.now(), audiences });
    this.seq = seq;
    this.pending.push({ change, json, frame: Buffer.from(json), audiences });
    return change;
  }

  /** Rewrites a logged change's payload in place; one of this commit's own is also published rewritten. */
  private async redact(client: pg.PoolClient, seq: number, replacement: ChangeDraft): Promise<void> {
    const change = { ...replacement, seq } as Change;
    const json = JSON.stringify(change);
    this.flush(client);
    await redactEntry({ query: (statement) => this.ask(client, statement) }, seq, change.type, json);
    const queued = this.pending.findIndex((item) => item.change.seq === seq);
    if (queued >= 0)
      this.pending[queued] = { ...this.pending[queued]!, change, json, frame: Buffer.from(json) };
  }

  private query<Row extends pg.QueryResultRow>(
    client: pg.PoolClient,
    scope: TxScope,
    query: Query<unknown>,
    params: readonly SqlParam[],
  ): Promise<pg.QueryResult<Row>> {
    if (!scope.open) throw new Error('the transaction is over: await every tx call inside commit or read');
    this.flush(client);
    return this.ask<Row>(client, statementOf(query, params));
  }

  /** The reading half of a `tx`: one object per commit or read (a few closures, not one per statement). */
  private makeReadTx(client: pg.PoolClient, scope: TxScope, now: number): ReadTx {
    return {
      all: async <Row>(query: Query<Row>, ...params: SqlParam[]): Promise<Row[]> =>
        (await this.query<pg.QueryResultRow>(client, scope, query, params)).rows as Row[],
      first: async <Row>(query: Query<Row>, ...params: SqlParam[]): Promise<Row | undefined> =>
        (await this.query<pg.QueryResultRow>(client, scope, query, params)).rows[0] as Row | undefined,
      now,
    };
  }

  private makeTx(client: pg.PoolClient, scope: TxScope, now: number): Tx {
    const ensureOpen = (what: string) => {
      if (!scope.open) throw new Error(`${what} outside its transaction: await every tx call inside commit`);
    };
    const tx: Tx = {
      ...this.makeReadTx(client, scope, now),
      run: async (query: Query<unknown>, ...params: SqlParam[]): Promise<number> =>
        (await this.query(client, scope, query, params)).rowCount ?? 0,
      queue: (query: Query<unknown>, ...params: SqlParam[]): void => {
        if (!scope.open) throw new Error('the transaction is over: await every tx call inside commit');
        this.flush(client);
        this.send(client, statementOf(query, params));
      },
      emit: (draft, audiences) => {
        ensureOpen('emit');
        return this.emit(draft, audiences);
      },
      nextSeq: () => this.seq + 1,
      maxSavepoints: PG_MAX_SAVEPOINTS,
      afterCommit: (fn) => {
        ensureOpen('afterCommit');
        this.after.push(fn);
      },
      redact: async (seq, replacement) => {
        ensureOpen('redact');
        await this.redact(client, seq, replacement);
      },
      savepoint: async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
        ensureOpen('savepoint');
        // What was emitted or sent before belongs to the enclosing transaction, not to this savepoint: it is
        // answered first, so its failure is thrown here, to the enclosing level, and ROLLBACK TO below never
        // reaches past this savepoint. No round trip when nothing is outstanding (a batch's next mutation).
        this.flush(client);
        await this.settle();
        const seq = this.seq;
        const mark = this.pending.length;
        this.send(client, SAVEPOINT);
        try {
          const result = await fn(tx);
          // This savepoint's appends and queued writes are answered with RELEASE: a failure among them
          // lands in the catch below and undoes this savepoint only.
          this.flush(client);
          await this.ask(client, RELEASE);
          return result;
        } catch (error) {
          // Everything queued now was emitted inside this savepoint (an inner one flushed before starting).
          this.unflushed = [];
          this.seq = seq;
          this.pending.length = mark;
          const sent = this.unawaited;
          // One round trip for both. What this savepoint sent is answered before them, and undone with it:
          // its failure is no longer the transaction's. On a dropped connection these fail too; the
          // commit's own ROLLBACK or COMMIT then fails as well.
          await Promise.all([this.issue(client, ROLLBACK_TO), this.issue(client, RELEASE)]).then(
            () => (sent.failure = undefined),
            () => undefined,
          );
          throw error;
        }
      },
    };
    return tx;
  }
}

const SAVEPOINT: pg.QueryConfig = { text: 'SAVEPOINT sp' };
const RELEASE: pg.QueryConfig = { text: 'RELEASE sp' };
const ROLLBACK_TO: pg.QueryConfig = { text: 'ROLLBACK TO sp' };

/** A `tx` statement as pg sends it. */
function statementOf(query: Query<unknown>, params: readonly SqlParam[]): pg.QueryConfig {
  // A Kysely query compiled by a PostgreSQL Kysely already has `$n`; it is dynamic, so not named.
  if (typeof query !== 'string') return { text: query.sql, values: [...query.parameters] };
  const { text, name } = translate(query);
  return name ? { name, text, values: [...params] } : { text, values: [...params] };
}

/**
 * pg's pipeline mode (pg 8.23 has it): every query is written at once, each with its own Sync, and the
 * answers are matched in order. pg reads `client.pipeline` at each send, so a checked-out client can switch
 * while nothing is outstanding; a pg without it ignores the field, and each statement then waits for the
 * one before in pg's queue (correct, only slower).
 */
function setPipelineMode(client: pg.PoolClient, on: boolean): void {
  (client as unknown as { pipeline: boolean }).pipeline = on;
}

/** Our `?` texts become `$n` once per text (and a named, per-connection prepared statement). */
function translate(text: string): Translated {
  const known = translations.get(text);
  if (known) return known;
  const translated: Translated = { text: toPgPlaceholders(text) };
  if (translations.size < MAX_NAMED) {
    translated.name = `ct_q${translations.size}`;
    translations.set(text, translated);
  }
  return translated;
}

/** The entries after `from` with their audiences, as text for the simple protocol (`from` is checked). */
function adoptSql(from: number): string {
  if (!Number.isSafeInteger(from)) throw new Error(`not a seq: ${from}`);
  return entriesBetweenSql(String(from), '(SELECT max(seq) FROM change_log)');
}

/**
 * `?` placeholders to PostgreSQL's `$1…$n`, leaving alone a `?` inside a string literal, a quoted
 * identifier, a dollar-quoted string or a comment.
 */
export function toPgPlaceholders(text: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  const copyUntil = (end: string, from: number): number => {
    const stop = text.indexOf(end, from);
    return stop < 0 ? text.length : stop + end.length;
  };
  while (i < text.length) {
    const ch = text[i]!;
    let next = i + 1;
    if (ch === '?') {
      out += `$${++n}`;
      i = next;
      continue;
    }
    if (ch === "'" || ch === '"') {
      // A doubled quote is an escaped one: the literal goes on.
      next = i + 1;
      for (;;) {
        next = copyUntil(ch, next);
        if (text[next] !== ch) break;
        next++;
      }
    } else if (ch === '-' && text[i + 1] === '-') next = copyUntil('\n', i + 2);
    else if (ch === '/' && text[i + 1] === '*') next = copyUntil('*/', i + 2);
    else if (ch === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i));
      if (tag) next = copyUntil(tag[0], i + tag[0].length);
    }
    out += text.slice(i, next);
    i = next;
  }
  return out;
}
