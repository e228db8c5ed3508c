import type { Kysely } from 'kysely';
import { dialectOf as adapterDialect, type Dialect } from './migrations/dialect';

/**
 * What feature SQL needs to run the same statements on SQLite and PostgreSQL 15.
 *
 * Most of SQLite's SQL is PostgreSQL's too; where they differ, write the form both accept:
 * - an upsert or ignore: `INSERT … ON CONFLICT (<key>) DO NOTHING / DO UPDATE SET x = excluded.x`, never
 *   `INSERT OR IGNORE / OR REPLACE`; in DO UPDATE qualify the target's columns with the table name
 *   (`n = t.n + excluded.n`): PostgreSQL calls a bare `n` ambiguous.
 * - the larger or smaller of two values: `CASE WHEN … THEN … ELSE … END`, never scalar `max(a, b)`.
 * - a list parameter: `x IN (?, ?, …)` through `inList` below, never `json_each(?)`.
 * - a comparison in the SELECT list is 0/1 on SQLite and true/false on PostgreSQL: read it with
 *   `Number(v) === 1`, or select `CASE WHEN … THEN 1 ELSE 0 END`; never SUM a comparison.
 * - a camelCase column alias must be quoted (`AS "userId"`): PostgreSQL folds a bare one to lower case.
 * - a subquery in FROM needs an alias; every selected column not aggregated is in GROUP BY.
 * - a tie-breaker is a real column, never `rowid`; `substr` takes no negative start (PostgreSQL returns
 *   the whole text): `substr(x, length(x) - n + 1)` reads the last n characters.
 * What only one database can say (JSON, NOCASE ordering, rowid) is chosen by `Dialect`, read from the
 * Kysely instance (`dialectOf(deps.db)`); server/test/portable-sql.test.ts holds the allow-list.
 */

export type { Dialect };

/** Which database a Kysely instance (or a transaction of it) talks to: read from its adapter, no query. */
export function dialectOf<T>(db: Kysely<T>): Dialect {
  return adapterDialect(db);
}

/** Builds a value for each dialect once (statement texts), so a call only picks one. */
export function perDialect<T>(build: (dialect: Dialect) => T): Readonly<Record<Dialect, T>> {
  return { sqlite: build('sqlite'), postgres: build('postgres') };
}

/**
 * The most values one list takes: SQLite allows 32,766 parameters in a statement, PostgreSQL 65,535. The
 * lists of the features are bounded far below (a page, a group's members, a snapshot's messages).
 */
export const MAX_LIST = 16_384;

/**
 * How many placeholders a list of `count` values gets: the next power of two (at least 1). A statement
 * then has one text per size class, not one per length, so SQLite's statement cache and PostgreSQL's named
 * prepared statements hold a handful of texts per statement, however the lengths vary.
 */
export function listSize(count: number): number {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`not a list length: ${count}`);
  if (count > MAX_LIST) throw new RangeError(`a list of ${count} values is over ${MAX_LIST}`);
  let size = 1;
  while (size < count) size *= 2;
  return size;
}

/**
 * The most parameters one statement may take on both databases: SQLite's limit (32,766 since 3.32;
 * PostgreSQL's is 65,535).
 */
export const MAX_PARAMS = 32_766;

/** `?, ?, …` (`count` of them). */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** A statement text with a list in it and the list's parameters, padded to the text's size. */
export interface ListQuery<S, T> {
  text: S;
  params: (T | null)[];
}

/**
 * A statement with one `IN (…)` list, `build(list)` writing `x IN (${list})`: call it with the values to get
 * the text for their size class and the padded values. Padding repeats the last value, which changes
 * neither `IN` nor `NOT IN`. An empty list becomes `IN (NULL)`, which matches nothing: fine for `IN`;
 * `NOT IN (NULL)` matches nothing either, so a caller with `NOT IN` must handle the empty list itself.
 * The values go in as parameters (`?`), so an IN list costs the same on SQLite as json_each and reads the
 * same index on both databases.
 */
export function inList<S>(build: (list: string) => S): <T>(values: readonly T[]) => ListQuery<S, T> {
  const texts = new Map<number, S>();
  return <T>(values: readonly T[]) => {
    const size = listSize(values.length);
    let text = texts.get(size);
    if (text === undefined) texts.set(size, (text = build(placeholders(size))));
    const params: (T | null)[] = [...values];
    const last = values.length ? values[values.length - 1]! : null;
    while (params.length < size) params.push(last);
    return { text, params };
  };
}

/**
 * A statement joining a list as a table, `build(table)` writing `FROM ${table} p`: `table` is
 * `(VALUES (?, 0), (?, 1), …)`, whose columns both databases name `column1` (the value) and `column2` (its
 * position in the list, for ORDER BY). Padding rows hold NULL, which joins nothing (a repeated value would
 * join twice). For a join per listed value (a correlated subquery per value); a plain filter is `inList`.
 */
export function valuesList<S>(build: (table: string) => S): <T>(values: readonly T[]) => ListQuery<S, T> {
  const texts = new Map<number, S>();
  return <T>(values: readonly T[]) => {
    const size = listSize(values.length);
    let text = texts.get(size);
    if (text === undefined) {
      const rows = Array.from({ length: size }, (_, i) => `(?, ${i})`).join(', ');
      texts.set(size, (text = build(`(VALUES ${rows})`)));
    }
    const params: (T | null)[] = [...values];
    while (params.length < size) params.push(null);
    return { text, params };
  };
}

/**
 * Statements over any number of rows of `width` values each, `build(rows)` writing `VALUES ${rows}` (an
 * INSERT, or an UPDATE joining `(VALUES ${rows}) AS v`, whose columns both databases name column1,
 * column2, …): call it with the rows to get the statements that write them all, in order. A statement takes
 * `per` rows (a power of two) and the rest goes in power-of-two pieces (100 rows by 64: 64, 32 and 4), so
 * there are at most log2(per) + 1 texts, as `inList`'s size classes, and no row is padding: an INSERT
 * cannot pad with a row it skips. `width × per` stays within MAX_PARAMS.
 */
export function rowBatches<S>(
  width: number,
  per: number,
  build: (rows: string) => S,
): <T>(rows: readonly (readonly T[])[]) => ListQuery<S, T>[] {
  if (!Number.isSafeInteger(width) || width < 1) throw new RangeError(`not a row width: ${width}`);
  if (!Number.isSafeInteger(per) || per < 1 || (per & (per - 1)) !== 0)
    throw new RangeError(`rows per statement must be a power of two, not ${per}`);
  if (width * per > MAX_PARAMS)
    throw new RangeError(`${per} rows of ${width} values are over ${MAX_PARAMS} parameters`);
  const texts = new Map<number, S>();
  const row = `(${placeholders(width)})`;
  return <T>(rows: readonly (readonly T[])[]) => {
    const statements: ListQuery<S, T>[] = [];
    for (let at = 0; at < rows.length;) {
      let size = per;
      while (size > rows.length - at) size /= 2;
      let text = texts.get(size);
      if (text === undefined) texts.set(size, (text = build(Array<string>(size).fill(row).join(', '))));
      const batch = rows.slice(at, at + size);
      const params: T[] = [];
      for (const values of batch) {
        if (values.length !== width) throw new RangeError(`a row of ${values.length} values, not ${width}`);
        params.push(...values);
      }
      statements.push({ text, params });
      at += size;
    }
    return statements;
  };
}
