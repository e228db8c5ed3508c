import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareOpaque, withOpaqueParameters } from '../src/lib/db/opaque-parameters';
import { StatementCache } from '../src/lib/db/statement-cache';

describe('withOpaqueParameters', () => {
  it('writes each bare parameter +?, wherever it stands', () => {
    expect(withOpaqueParameters('SELECT * FROM t WHERE a = ? AND b IN (?, ?) LIMIT ?')).toBe(
      'SELECT * FROM t WHERE a = +? AND b IN (+?, +?) LIMIT +?',
    );
    expect(withOpaqueParameters('?')).toBe('+?');
    expect(withOpaqueParameters('VALUES (?,?)')).toBe('VALUES (+?,+?)');
    expect(withOpaqueParameters('SELECT ?1, a-?2')).toBe('SELECT +?1, a-+?2');
    expect(withOpaqueParameters('SELECT 1')).toBe('SELECT 1');
  });

  it('leaves quoted text, quoted names and comments as they are', () => {
    expect(withOpaqueParameters(`SELECT 'what?', 'it''s ?', x FROM t WHERE y = ?`)).toBe(
      `SELECT 'what?', 'it''s ?', x FROM t WHERE y = +?`,
    );
    expect(withOpaqueParameters('SELECT "a?b", `c?`, [d?] FROM t WHERE e = ?')).toBe(
      'SELECT "a?b", `c?`, [d?] FROM t WHERE e = +?',
    );
    expect(withOpaqueParameters('SELECT 1 -- why?\nWHERE a = ? /* or? */ AND b = ?')).toBe(
      'SELECT 1 -- why?\nWHERE a = +? /* or? */ AND b = +?',
    );
    // Unterminated quotes and comments run to the end (SQLite refuses them anyway).
    expect(withOpaqueParameters("SELECT 'open ?")).toBe("SELECT 'open ?");
    expect(withOpaqueParameters('SELECT 1 /* open ?')).toBe('SELECT 1 /* open ?');
  });
});

describe('statements with opaque parameters', () => {
  let sqlite: Database.Database;

  beforeEach(() => {
    sqlite = new Database(':memory:');
    sqlite.exec(`
      CREATE TABLE t (k TEXT NOT NULL, n INTEGER NOT NULL, v, flag TEXT);
      CREATE INDEX t_kn ON t (k, n);
      CREATE INDEX t_flag ON t (flag) WHERE flag IS NOT NULL;
    `);
    const insert = prepareOpaque<[string, number, unknown, string | null]>(
      sqlite,
      'INSERT INTO t (k, n, v, flag) VALUES (?, ?, ?, ?)',
    );
    insert.run('a', 1, 'text', null);
    insert.run('a', 2, 42, 'x');
    insert.run('a', 3, Buffer.from([1, 2]), null);
    insert.run('b', 1, null, 'y');
    insert.run('10', 1, 1.5, null);
  });

  afterEach(() => sqlite.close());

  it('are what StatementCache compiles, keyed by the text as written', () => {
    const cache = new StatementCache(sqlite);
    const statement = cache.get('SELECT n FROM t WHERE k = ? ORDER BY n DESC LIMIT ?');
    expect(statement.source).toBe('SELECT n FROM t WHERE k = +? ORDER BY n DESC LIMIT +?');
    expect(cache.get('SELECT n FROM t WHERE k = ? ORDER BY n DESC LIMIT ?')).toBe(statement);
    expect(statement.pluck().all('a', 2)).toEqual([3, 2]);
  });

  it('answer as the bare ones do, for every type of value', () => {
    const both = (sql: string, ...params: unknown[]) => {
      const bare = sqlite.prepare(sql).all(...params);
      expect(prepareOpaque(sqlite, sql).all(...params)).toEqual(bare);
      return bare;
    };
    expect(both('SELECT v FROM t WHERE k = ? ORDER BY n', 'a')).toEqual([
      { v: 'text' },
      { v: 42 },
      { v: Buffer.from([1, 2]) },
    ]);
    // An integer bound against a TEXT column takes the column's affinity, as before (a JS number binds
    // as a REAL, 10.0, which is not the text '10' on either side).
    expect(both('SELECT n FROM t WHERE k = ?', 10n)).toEqual([{ n: 1 }]);
    expect(both('SELECT n FROM t WHERE k = ?', 10)).toEqual([]);
    expect(both('SELECT ? IS NULL AS none, typeof(?) AS type', null, 7n)).toEqual([
      { none: 1, type: 'integer' },
    ]);
    expect(both('SELECT k FROM t WHERE v = ?', Buffer.from([1, 2]))).toEqual([{ k: 'a' }]);
    expect(both("SELECT k FROM t WHERE k LIKE ? ESCAPE '\\' ORDER BY k", '1%')).toEqual([{ k: '10' }]);
    expect(both('SELECT n FROM t WHERE k = ? ORDER BY n LIMIT ? OFFSET ?', 'a', 1, 1)).toEqual([{ n: 2 }]);
  });

  it('keep their indexes, partial ones included', () => {
    const plan = (sql: string, ...params: unknown[]) =>
      prepareOpaque(sqlite, `EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => (row as { detail: string }).detail)
        .join(' | ');
    expect(plan('SELECT v FROM t WHERE k = ? AND n > ? ORDER BY n', 'a', 1)).toContain(
      'SEARCH t USING INDEX t_kn (k=? AND n>?)',
    );
    expect(plan('SELECT k FROM t WHERE flag = ?', 'x')).toContain('SEARCH t USING INDEX t_flag (flag=?)');
    // A partial index whose condition is a value is used when the query writes the value, not binds it.
    sqlite.exec("CREATE INDEX t_v_flagged ON t (v) WHERE flag = 'x'");
    expect(plan("SELECT k FROM t WHERE v = ? AND flag = 'x'", 42)).toContain('USING INDEX t_v_flagged');
    expect(plan('SELECT k FROM t WHERE v = ? AND flag = ?', 42, 'x')).not.toContain('t_v_flagged');
  });
});
