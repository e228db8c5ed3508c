import { sql, type SqlParam } from '../../src/realtime/transaction';
import type { TestServer } from './test-server';

export type { SqlParam };

/**
 * Raw SQL in tests, on SQLite and PostgreSQL alike (the server-pg project): through the server's own
 * transactor, with `?` placeholders (PgTransactor numbers them). Write portable SQL: no `json_*`, `instr`
 * or `INSERT OR …`; counts and seqs come back as numbers on both.
 */
export function rowsOf<Row>(
  server: Pick<TestServer, 'deps'>,
  text: string,
  ...params: SqlParam[]
): Promise<Row[]> {
  return server.deps.transactor.read((tx) => tx.all(sql<Row>(text), ...params));
}

/** The first row, or undefined. */
export async function rowOf<Row>(
  server: Pick<TestServer, 'deps'>,
  text: string,
  ...params: SqlParam[]
): Promise<Row | undefined> {
  return (await rowsOf<Row>(server, text, ...params))[0];
}

/** A write in its own commit (no change is emitted); resolves with the number of rows it changed. */
export function execSql(
  server: Pick<TestServer, 'deps'>,
  text: string,
  ...params: SqlParam[]
): Promise<number> {
  return server.deps.transactor.commit((tx) => tx.run(sql(text), ...params));
}

/**
 * The first column of the first row (a count, one stored value), or undefined when there is none: the
 * column's name differs between the two (`count(*)` on SQLite, `count` on PostgreSQL), its value does not.
 */
export async function valueOf<Value>(
  server: Pick<TestServer, 'deps'>,
  text: string,
  ...params: SqlParam[]
): Promise<Value | undefined> {
  const row = await rowOf<Record<string, Value>>(server, text, ...params);
  return row && Object.values(row)[0];
}
