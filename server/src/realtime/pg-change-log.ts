import type pg from 'pg';
import type { LogRow } from './change-log';
import { CHANGE_RETENTION_MS } from './change-log';

/**
 * The change log on PostgreSQL: the statements of change-log.ts, asynchronous. Same tables, same rules:
 * seqs are contiguous (the transactor hands them out under one lock for the whole deployment and rewinds on
 * rollback), so "everything at or below `floor` was pruned" is one number, and the newest entry is never
 * pruned (it carries the seq counter across restarts). Each function takes what to run on: the pool, or a
 * transaction's client. Numbers come back as numbers only if the pool parses BIGINT (lib/db/postgres.ts
 * does); the seqs read here go through Number() anyway, since they drive the counter.
 */

/** A pool or one of its clients: both run a query. */
export interface PgQueryable {
  query<Row extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<Row>>;
}

/** An entry with its audiences (a node filling a gap in its feed, or a commit adopting another's). */
export type LogEntry = LogRow & { audiences: string[] };

/** One change to append: what `Tx.emit` queues until the transaction's next statement. */
export interface LogAppend {
  seq: number;
  type: string;
  payload: string;
  createdMs: number;
  audiences: readonly string[];
}

// Every statement has a name: pg prepares it once per connection and reuses the plan.
const APPEND: pg.QueryConfig = {
  name: 'ct_log_append',
  // Any number of entries and their audiences in one statement (one round trip per flush, not per emit).
  text: `WITH entries AS (
           INSERT INTO change_log (seq, type, payload, created_ms)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[]))
         INSERT INTO change_audience (audience, seq) SELECT * FROM unnest($5::text[], $6::bigint[])`,
};
const REDACT = 'UPDATE change_log SET type = $1, payload = $2 WHERE seq = $3';
const MAX_SEQ = 'SELECT max(seq) AS seq FROM change_log';
const MIN_SEQ = 'SELECT min(seq) AS seq FROM change_log';
const LAST_PRUNABLE = `SELECT max(seq) AS seq FROM change_log
                        WHERE created_ms < $1 AND seq < (SELECT max(seq) FROM change_log)`;
const PRUNE_AUDIENCE = 'DELETE FROM change_audience WHERE seq <= $1';
const PRUNE_LOG = 'DELETE FROM change_log WHERE seq <= $1';
/**
 * Entries in (after, upTo] with their audiences (never null: an entry without one gets an empty array), in
 * the order they were written. `after` and `upTo` are SQL: parameters, or numbers the transactor writes in.
 */
export const entriesBetweenSql = (after: string, upTo: string) =>
  `SELECT l.seq, l.payload,
          array(SELECT a.audience FROM change_audience a WHERE a.seq = l.seq ORDER BY a.audience) AS audiences
     FROM change_log l WHERE l.seq > ${after} AND l.seq <= ${upTo} ORDER BY l.seq`;
const ENTRIES_BETWEEN = entriesBetweenSql('$1', '$2');
/**
 * A page of a pull: the next seqs after `after` (up to `upTo`) of any of the audiences, then their payloads.
 * Each audience is read along its own primary-key range, LIMITed (a LATERAL per audience), so a page costs
 * at most audiences × (page + 1) index entries, however long the backlog; one `audience = ANY(…)` with
 * ORDER BY seq LIMIT would read every matching seq of the backlog for every page on PostgreSQL 15.
 */
const PAGE = `SELECT l.seq, l.payload FROM change_log l
               WHERE l.seq IN (
                 SELECT DISTINCT s.seq FROM unnest($1::text[]) AS a(audience)
                 CROSS JOIN LATERAL (
                   SELECT c.seq FROM change_audience c
                    WHERE c.audience = a.audience AND c.seq > $2 AND c.seq <= $3 ORDER BY c.seq LIMIT $4) s
                 ORDER BY s.seq LIMIT $4)
               ORDER BY l.seq`;

function named(name: string, text: string, values: readonly unknown[]): pg.QueryConfig {
  return { name, text, values: [...values] };
}

function seqOf(row: { seq: number | string | null } | undefined): number | undefined {
  return row?.seq === null || row?.seq === undefined ? undefined : Number(row.seq);
}

/** Appends entries and their audiences (in the caller's transaction). */
export async function appendEntries(q: PgQueryable, entries: readonly LogAppend[]): Promise<void> {
  if (entries.length) await q.query(appendStatement(entries));
}

/** The append of `entries` as one statement, for a caller that sends it without waiting (PgTransactor). */
export function appendStatement(entries: readonly LogAppend[]): pg.QueryConfig {
  const audiences: string[] = [];
  const audienceSeqs: number[] = [];
  for (const entry of entries)
    for (const audience of entry.audiences) {
      audiences.push(audience);
      audienceSeqs.push(entry.seq);
    }
  return {
    ...APPEND,
    values: [
      entries.map((e) => e.seq),
      entries.map((e) => e.type),
      entries.map((e) => e.payload),
      entries.map((e) => e.createdMs),
      audiences,
      audienceSeqs,
    ],
  };
}

/** Replaces an entry's type and payload; its seq and audiences stay (a pruned seq is left alone). */
export async function redactEntry(q: PgQueryable, seq: number, type: string, payload: string): Promise<void> {
  await q.query(named('ct_log_redact', REDACT, [type, payload, seq]));
}

export async function maxSeq(q: PgQueryable): Promise<number> {
  const { rows } = await q.query<{ seq: number | null }>(named('ct_log_max', MAX_SEQ, []));
  return seqOf(rows[0]) ?? 0;
}

/** Everything with seq ≤ this is gone. */
export async function floorSeq(q: PgQueryable): Promise<number> {
  const { rows } = await q.query<{ seq: number | null }>(named('ct_log_min', MIN_SEQ, []));
  const min = seqOf(rows[0]);
  return min ? min - 1 : maxSeq(q);
}

/**
 * Deletes entries older than the retention, in the caller's transaction (the transactor runs it under the
 * log's lock); returns the new floor, or undefined when nothing went.
 */
export async function pruneEntries(q: PgQueryable, nowMs: number): Promise<number | undefined> {
  const { rows } = await q.query<{ seq: number | null }>(
    named('ct_log_last_prunable', LAST_PRUNABLE, [nowMs - CHANGE_RETENTION_MS]),
  );
  const last = seqOf(rows[0]);
  if (!last) return undefined;
  await q.query(named('ct_log_prune_audience', PRUNE_AUDIENCE, [last]));
  await q.query(named('ct_log_prune', PRUNE_LOG, [last]));
  return last;
}

/** Entries with `after` < seq ≤ `upTo` and their audiences, in seq order. */
export async function entriesBetween(q: PgQueryable, after: number, upTo: number): Promise<LogEntry[]> {
  const { rows } = await q.query<{ seq: number | string; payload: string; audiences: string[] }>(
    named('ct_log_between', ENTRIES_BETWEEN, [after, upTo]),
  );
  return rows.map((row) => ({ seq: Number(row.seq), payload: row.payload, audiences: row.audiences }));
}

/** change-log.ts's LogReader, asynchronous. */
export interface AsyncLogReader {
  /** The next at most `limit` changes, in seq order. */
  next(limit: number): Promise<LogRow[]>;
  /** Whether another change follows the ones read so far. */
  hasMore(): Promise<boolean>;
}

/**
 * Reads everything after `after` and at most `upTo` (the seq the pull hands over to live at: a change
 * committed later goes out live, so the pull must not carry it too) for these audiences, page by page. Every
 * page asks for one more row than it returns, so `hasMore` after a `next` costs no query. A pull reads
 * through PgTransactor.readLog: one snapshot for the floor check and the pages, and bitmap scans off (see
 * there). On the pool it works too (below `upTo` the log only changes by pruning and redaction).
 */
export function logReader(
  q: PgQueryable,
  audiences: readonly string[],
  after: number,
  upTo: number,
): AsyncLogReader {
  const list = [...new Set(audiences)];
  let last = after;
  let lookahead: LogRow | undefined;
  let exhausted = !list.length || after >= upTo;
  const fetch = async (limit: number): Promise<LogRow[]> => {
    const { rows } = await q.query<{ seq: number | string; payload: string }>(
      named('ct_log_page', PAGE, [list, last, upTo, limit]),
    );
    if (rows.length < limit) exhausted = true;
    return rows.map((row) => ({ seq: Number(row.seq), payload: row.payload }));
  };
  return {
    async next(limit) {
      if (limit <= 0) return [];
      const page: LogRow[] = lookahead ? [lookahead] : [];
      lookahead = undefined;
      if (!exhausted && page.length <= limit) {
        const rows = await fetch(limit + 1 - page.length);
        page.push(...rows);
      }
      if (page.length > limit) lookahead = page.pop();
      if (page.length) last = Math.max(last, lookahead?.seq ?? page[page.length - 1]!.seq);
      return page;
    },
    async hasMore() {
      if (lookahead) return true;
      if (exhausted) return false;
      const rows = await fetch(1);
      lookahead = rows[0];
      if (lookahead) last = lookahead.seq;
      return lookahead !== undefined;
    },
  };
}

/** The change log's operations bound to one pool or client (as changeLogStatements binds a handle). */
export function pgChangeLog(q: PgQueryable) {
  return {
    append: (entries: readonly LogAppend[]) => appendEntries(q, entries),
    redact: (seq: number, type: string, payload: string) => redactEntry(q, seq, type, payload),
    maxSeq: () => maxSeq(q),
    floor: () => floorSeq(q),
    prune: (nowMs: number) => pruneEntries(q, nowMs),
    entriesBetween: (after: number, upTo: number) => entriesBetween(q, after, upTo),
    reader: (audiences: readonly string[], after: number, upTo: number) =>
      logReader(q, audiences, after, upTo),
  };
}

export type PgChangeLog = ReturnType<typeof pgChangeLog>;
/** The reads a pull or a gap fill needs: what PgTransactor.readLog hands out. */
export type PgLogView = Pick<PgChangeLog, 'maxSeq' | 'floor' | 'entriesBetween' | 'reader'>;
