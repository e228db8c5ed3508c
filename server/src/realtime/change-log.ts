import type SQLite from 'better-sqlite3';
import { prepareOpaque } from '../lib/db/opaque-parameters';

/** Changes older than this are pruned; a client whose cursor points before them gets a `sync_reset`. */
export const CHANGE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface LogRow {
  seq: number;
  payload: string;
}

/**
 * The change log's SQL, prepared once per database. Seqs are contiguous (the hub hands them out and
 * rewinds on rollback), so "everything at or below `floor` was pruned" is one number.
 */
export function changeLogStatements(sqlite: SQLite.Database) {
  const insertLog = prepareOpaque<[number, string, string, number]>(
    sqlite,
    'INSERT INTO change_log (seq, type, payload, created_ms) VALUES (?, ?, ?, ?)',
  );
  const insertAudience = prepareOpaque<[string, number]>(
    sqlite,
    'INSERT INTO change_audience (audience, seq) VALUES (?, ?)',
  );
  const redactLog = prepareOpaque<[string, string, number]>(
    sqlite,
    'UPDATE change_log SET type = ?, payload = ? WHERE seq = ?',
  );
  const maxSeq = prepareOpaque<[], { seq: number | null }>(sqlite, 'SELECT max(seq) AS seq FROM change_log');
  const minSeq = prepareOpaque<[], { seq: number | null }>(sqlite, 'SELECT min(seq) AS seq FROM change_log');
  // The newest entry is never pruned: it keeps the seq counter alive across restarts.
  const lastPrunable = prepareOpaque<[number], { seq: number | null }>(
    sqlite,
    'SELECT max(seq) AS seq FROM change_log WHERE created_ms < ? AND seq < (SELECT max(seq) FROM change_log)',
  );
  const pruneLog = prepareOpaque<[number]>(sqlite, 'DELETE FROM change_log WHERE seq <= ?');
  const pruneAudience = prepareOpaque<[number]>(sqlite, 'DELETE FROM change_audience WHERE seq <= ?');
  // One audience's next seqs after a point, on change_audience's primary key (audience, seq): a LIMITed range.
  const audienceSeqs = prepareOpaque<[string, number, number], number>(
    sqlite,
    'SELECT seq FROM change_audience WHERE audience = ? AND seq > ? ORDER BY seq LIMIT ?',
  ).pluck();
  // The payloads of a page's seqs (already sorted and distinct), by change_log's primary key.
  // `json_each` turns the list into one bound parameter so the statement is prepared once.
  const payloads = prepareOpaque<[string], LogRow>(
    sqlite,
    'SELECT seq, payload FROM change_log WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq',
  );

  // Rows another process appended (a CLI such as the seed, run beside the server): rare, so a scan is fine.
  const logAfter = prepareOpaque<[number], LogRow>(
    sqlite,
    'SELECT seq, payload FROM change_log WHERE seq > ? ORDER BY seq',
  );
  const audiencesAfter = prepareOpaque<[number], { audience: string; seq: number }>(
    sqlite,
    'SELECT audience, seq FROM change_audience WHERE seq > ?',
  );

  // A range of the log with each entry's audiences in one statement (a node filling a gap in its Redis feed).
  const range = prepareOpaque<[number, number], LogRow & { audiences: string }>(
    sqlite,
    `SELECT l.seq, l.payload, (SELECT json_group_array(a.audience) FROM change_audience a WHERE a.seq = l.seq)
       AS audiences FROM change_log l WHERE l.seq > ? AND l.seq <= ? ORDER BY l.seq`,
  );

  return {
    /** Entries with `after` < seq ≤ `upTo` and their audiences, in seq order. */
    entriesBetween(after: number, upTo: number): (LogRow & { audiences: string[] })[] {
      return range
        .all(after, upTo)
        .map((row) => ({ ...row, audiences: JSON.parse(row.audiences) as string[] }));
    },
    /** Entries after `after` with their audiences, in seq order. */
    entriesAfter(after: number): (LogRow & { audiences: string[] })[] {
      const audiences = new Map<number, string[]>();
      for (const row of audiencesAfter.all(after)) {
        const list = audiences.get(row.seq);
        if (list) list.push(row.audience);
        else audiences.set(row.seq, [row.audience]);
      }
      return logAfter.all(after).map((row) => ({ ...row, audiences: audiences.get(row.seq) ?? [] }));
    },
    append(seq: number, type: string, payload: string, createdMs: number, audiences: readonly string[]) {
      insertLog.run(seq, type, payload, createdMs);
      for (const audience of audiences) insertAudience.run(audience, seq);
    },
    /** Replaces an entry's type and payload; its seq and audiences stay (a pruned seq is left alone). */
    redact(seq: number, type: string, payload: string): void {
      redactLog.run(type, payload, seq);
    },
    maxSeq: (): number => maxSeq.get()?.seq ?? 0,
    /** Everything with seq ≤ this is gone. */
    floor: (): number => {
      const min = minSeq.get()?.seq;
      return min ? min - 1 : (maxSeq.get()?.seq ?? 0);
    },
    /** Deletes entries older than the retention; returns the new floor or undefined when nothing went. */
    prune(nowMs: number): number | undefined {
      const last = lastPrunable.get(nowMs - CHANGE_RETENTION_MS)?.seq;
      if (!last) return undefined;
      sqlite.transaction(() => {
        pruneAudience.run(last);
        pruneLog.run(last);
      })();
      return last;
    },
    /**
     * A reader of everything after `after` for these audiences, page by page. Each audience is read in
     * LIMITed chunks along its own index range and the ranges are merged by seq, so a backlog of N changes
     * costs about N index reads in all, whatever the page size (one IN over every audience would read all
     * N matching seqs again for every page).
     */
    reader(audiences: readonly string[], after: number, chunk: number): LogReader {
      return new MergedReader(
        [...new Set(audiences)].map((audience) => ({ audience, last: after, buf: [], pos: 0, done: false })),
        chunk,
        (audience, last, limit) => audienceSeqs.all(audience, last, limit),
        (seqs) => (seqs.length ? payloads.all(JSON.stringify(seqs)) : []),
      );
    },
  };
}

export type ChangeLogStatements = ReturnType<typeof changeLogStatements>;

export interface LogReader {
  /** The next at most `limit` changes, in seq order. */
  next(limit: number): LogRow[];
  /** Whether another change follows the ones read so far. */
  hasMore(): boolean;
}

interface AudienceStream {
  audience: string;
  /** The last seq fetched from the database for this audience. */
  last: number;
  buf: number[];
  pos: number;
  /** The database has nothing after `last` for this audience. */
  done: boolean;
}

/** A k-way merge of the audiences' seq ranges; a seq in several audiences comes out once. */
class MergedReader implements LogReader {
  constructor(
    private readonly streams: AudienceStream[],
    private readonly chunk: number,
    private readonly fetchSeqs: (audience: string, last: number, limit: number) => number[],
    private readonly fetchPayloads: (seqs: number[]) => LogRow[],
  ) {}

  /** The smallest unread seq of any audience, refilling buffers as they run out; Infinity when none. */
  private head(): number {
    let min = Infinity;
    for (const s of this.streams) {
      if (s.pos >= s.buf.length && !s.done) {
        s.buf = this.fetchSeqs(s.audience, s.last, this.chunk);
        s.pos = 0;
        s.done = s.buf.length < this.chunk;
        if (s.buf.length) s.last = s.buf[s.buf.length - 1]!;
      }
      if (s.pos < s.buf.length && s.buf[s.pos]! < min) min = s.buf[s.pos]!;
    }
    return min;
  }

  next(limit: number): LogRow[] {
    const seqs: number[] = [];
    while (seqs.length < limit) {
      const min = this.head();
      if (min === Infinity) break;
      for (const s of this.streams) if (s.pos < s.buf.length && s.buf[s.pos] === min) s.pos++;
      seqs.push(min);
    }
    return this.fetchPayloads(seqs);
  }

  hasMore(): boolean {
    return this.head() !== Infinity;
  }
}
