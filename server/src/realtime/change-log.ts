import type SQLite from 'better-sqlite3';

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
  const insertLog = sqlite.prepare<[number, string, string, number]>(
    'INSERT INTO change_log (seq, type, payload, created_ms) VALUES (?, ?, ?, ?)',
  );
  const insertAudience = sqlite.prepare<[string, number]>(
    'INSERT INTO change_audience (audience, seq) VALUES (?, ?)',
  );
  const maxSeq = sqlite.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM change_log');
  const minSeq = sqlite.prepare<[], { seq: number | null }>('SELECT min(seq) AS seq FROM change_log');
  // The newest entry is never pruned: it keeps the seq counter alive across restarts.
  const lastPrunable = sqlite.prepare<[number], { seq: number | null }>(
    'SELECT max(seq) AS seq FROM change_log WHERE created_ms < ? AND seq < (SELECT max(seq) FROM change_log)',
  );
  const pruneLog = sqlite.prepare<[number]>('DELETE FROM change_log WHERE seq <= ?');
  const pruneAudience = sqlite.prepare<[number]>('DELETE FROM change_audience WHERE seq <= ?');
  // `json_each` turns the audience list into one bound parameter so the statement is prepared once.
  // change_audience's primary key (audience, seq) serves each audience's range; duplicates fold in IN.
  const page = sqlite.prepare<[string, number, number, number], LogRow>(
    `SELECT l.seq, l.payload FROM change_log l
      WHERE l.seq IN (SELECT a.seq FROM change_audience a
                       WHERE a.audience IN (SELECT value FROM json_each(?)) AND a.seq > ?)
        AND l.seq > ?
      ORDER BY l.seq LIMIT ?`,
  );

  return {
    append(seq: number, type: string, payload: string, createdMs: number, audiences: readonly string[]) {
      insertLog.run(seq, type, payload, createdMs);
      for (const audience of audiences) insertAudience.run(audience, seq);
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
    page(audiences: readonly string[], after: number, limit: number): LogRow[] {
      return page.all(JSON.stringify(audiences), after, after, limit);
    },
  };
}

export type ChangeLogStatements = ReturnType<typeof changeLogStatements>;
