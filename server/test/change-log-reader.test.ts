import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { changeLogStatements } from '../src/realtime/change-log';

/** A change log in memory with the real tables, filled with `count` changes spread over a few audiences. */
function filledLog(count: number, seed: number) {
  const sqlite = new Database(':memory:');
  sqlite.exec(`CREATE TABLE change_log (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL,
                 created_ms INTEGER NOT NULL);
               CREATE TABLE change_audience (audience TEXT NOT NULL, seq INTEGER NOT NULL,
                 PRIMARY KEY (audience, seq)) WITHOUT ROWID;`);
  const log = changeLogStatements(sqlite);
  const names = ['u:ann', 'u:bob', 'g:one', 'g:two', 'g:three'];
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  sqlite.transaction(() => {
    for (let seq = 1; seq <= count; seq++) {
      const audiences = names.filter(() => random() < 0.35);
      log.append(seq, 't', `{"seq":${seq}}`, 0, audiences.length ? audiences : ['u:carol']);
    }
  })();
  return { sqlite, log };
}

describe('change log reader', () => {
  it('pages through exactly the changes of the given audiences after the cursor, once each, in seq order', () => {
    const { sqlite, log } = filledLog(3000, 7);
    const audiences = ['u:ann', 'g:one', 'g:three', 'g:one'];
    for (const [after, pageSize] of [
      [0, 1000],
      [0, 7],
      [1234, 100],
      [2999, 50],
      [3000, 10],
    ] as const) {
      const expected = sqlite
        .prepare(
          `SELECT DISTINCT seq FROM change_audience WHERE audience IN ('u:ann', 'g:one', 'g:three') AND seq > ?
            ORDER BY seq`,
        )
        .pluck()
        .all(after) as number[];
      const reader = log.reader(audiences, after, pageSize);
      const pages: number[][] = [];
      for (;;) {
        const rows = reader.next(pageSize);
        expect(rows.every((row) => row.payload === `{"seq":${row.seq}}`)).toBe(true);
        pages.push(rows.map((row) => row.seq));
        if (!reader.hasMore()) break;
      }
      expect(pages.flat()).toEqual(expected);
      expect(pages.slice(0, -1).every((page) => page.length === pageSize)).toBe(true);
    }
  });
});
