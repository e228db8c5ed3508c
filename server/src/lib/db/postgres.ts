import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { guardedDialect } from './serialized-dialect';

export interface OpenedPostgres {
  db: Kysely<Database>;
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface PostgresOptions {
  /**
   * Every connection's search_path: the tables live (and are created by the migrations) in this schema.
   * Tests give each file a throwaway schema; unset, the server's default (`public`).
   */
  schema?: string;
  /** The pool's size (pg's default, 10, when unset). */
  max?: number;
  /**
   * Whether the caller runs inside a realtime commit or read (the server's PgTransactor): Kysely refuses
   * to run there (serialized-dialect.ts's guardedDialect). Read late: the transactor comes after the pool.
   */
  insideCommit?: () => boolean;
}

/** A schema name that needs no quoting, so it can go into a `-c search_path=` startup option as is. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * pg hands BIGINT (count(*), seqs, epoch ms) and NUMERIC (sum() of a BIGINT) back as strings so nothing
 * loses precision; the code treats them as numbers, as SQLite returns them, and every value stays below
 * 2^53 (ms timestamps and seqs). A BIGINT beyond that throws rather than silently rounding. Set per pool,
 * not on pg's global type table, so other pg users in the process keep pg's defaults.
 */
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`BIGINT ${value} does not fit a JavaScript number`);
  return n;
}

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary' && oid === INT8_OID) return parseInt8;
    if (format !== 'binary' && oid === NUMERIC_OID) return Number;
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * A postgres:// URL without its `options` parameter (startup settings such as `-c statement_timeout=…`),
 * and that parameter: pg lets the URL's win over the pool's own, so they are merged instead.
 */
function splitOptions(url: string): { url: string; options: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, options: '' };
  }
  const options = parsed.searchParams.get('options');
  if (options === null) return { url, options: '' };
  parsed.searchParams.delete('options');
  return { url: parsed.toString(), options };
}

/** Opens a pool on DATABASE_URL (postgres://…) and a Kysely instance on it with PostgreSQL's dialect. */
export function openPostgres(url: string, options: PostgresOptions = {}): OpenedPostgres {
  const { schema, max, insideCommit } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema))
    throw new Error(
      `a PostgreSQL schema name must be lower-case letters, digits and underscores, got ${schema}`,
    );
  const fromUrl = splitOptions(url);
  const pool = new pg.Pool({
    connectionString: fromUrl.url,
    types,
    ...(max !== undefined ? { max } : {}),
    // JIT off: every statement here is short, and JIT compiles whenever a plan's estimated cost passes
    // jit_above_cost. The change log's reads are costed per entry (each entry's audiences), so once the
    // log held some 50,000 entries, every commit's first statement (PgTransactor.begin, run under the
    // deployment's write lock) spent about half a second compiling, to read nothing.
    options: [fromUrl.options, '-c jit=off', schema !== undefined ? `-c search_path=${schema}` : '']
      .filter(Boolean)
      .join(' '),
  });
  // An idle client's connection dropping (a PostgreSQL restart) is reported here; without a listener the
  // pool's 'error' event would crash the process. The next query opens a fresh connection.
  pool.on('error', () => {});
  const dialect = new PostgresDialect({ pool });
  const db = new Kysely<Database>({
    dialect: insideCommit ? guardedDialect(dialect, insideCommit) : dialect,
  });
  return {
    db,
    pool,
    async close() {
      // Kysely's destroy ends the pool it was given.
      await db.destroy();
    },
  };
}
