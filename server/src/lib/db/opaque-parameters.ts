import type SQLite from 'better-sqlite3';

/**
 * SQLite statement text with every bare `?` written `+?`, so no bound value ever recompiles the statement.
 *
 * Why: the better-sqlite3 build is compiled with SQLITE_ENABLE_STAT4, and then "if the specific value
 * bound to a host parameter in the WHERE clause might influence the choice of query plan … the statement
 * will be automatically recompiled … on the first sqlite3_step() call following any change to the
 * bindings" (sqlite3_prepare_v2's documentation). better-sqlite3 binds anew on every call, so such a
 * statement is compiled again on every run: measured on SQLite 3.54 (by hand, 2026-11-28), a snapshot's
 * direct-conversations query (`WHERE dc.user_id = ? ORDER BY … LIMIT ?`) took 30 µs a call against 2.2 µs
 * with `+?`, and any equality on an indexed column followed by ORDER BY about 9 µs against 2.
 *
 * `+x` is SQLite's no-op operator ("it always returns a result with the same value as the operand"): the
 * value, its type, affinity (none) and collation are those of the bare parameter, and an expression
 * that names no column still drives an index seek (`col = +?` seeks on `col`; it is `+col` that turns an
 * index off). What the planner no longer sees is the value itself: the plan is the one SQLite makes
 * without bindings, for every value. So a partial index is used only when the query states its condition
 * itself (`WHERE … AND is_read = 0`, not `is_read = ?` bound to 0; `x = ?` does imply `x IS NOT NULL`).
 * SQLite only: PostgreSQL has no unary plus on text, and its statements never pass through here.
 *
 * Quoted text (`'…'`, `"…"`, `` `…` ``, `[…]`) and comments are copied as they are.
 */
export function withOpaqueParameters(sql: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      i = endOfQuoted(sql, i, c);
    } else if (c === '[') {
      const close = sql.indexOf(']', i + 1);
      i = close < 0 ? sql.length : close + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const newline = sql.indexOf('\n', i + 2);
      i = newline < 0 ? sql.length : newline + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? sql.length : close + 2;
    } else if (c === '?') {
      out += sql.slice(from, i) + '+';
      from = i;
      i++;
    } else {
      i++;
    }
  }
  return out === '' ? sql : out + sql.slice(from);
}

/** Past the quote that closes the one at `start` (a doubled quote is an escaped one, not the end). */
function endOfQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  for (;;) {
    const close = sql.indexOf(quote, i);
    if (close < 0) return sql.length;
    if (sql[close + 1] !== quote) return close + 1;
    i = close + 2;
  }
}

/** `sqlite.prepare` of the text with opaque parameters: for statements prepared once, outside StatementCache. */
export function prepareOpaque<P extends unknown[] | object = unknown[], R = unknown>(
  sqlite: SQLite.Database,
  sql: string,
): SQLite.Statement<P, R> {
  return sqlite.prepare<P, R>(withOpaqueParameters(sql));
}
