import type SQLite from 'better-sqlite3';
import { withOpaqueParameters } from './opaque-parameters';

/** Dynamic SQL (IN lists compiled by Kysely) could grow the cache without end: the oldest go first. */
const MAX_STATEMENTS = 1000;

/**
 * Prepared statements by SQL text, one cache per database handle: preparing costs far more than running,
 * and the hot path runs the same few statements for every message. The only place statements are cached:
 * the realtime engine's and Kysely's (database.ts hands it to Kysely's driver, which would prepare every
 * query anew). A cached statement is only ever run with `all`, `get` or `run` (never left iterating), so
 * two users of one text cannot meet mid-run.
 */
export class StatementCache {
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(private readonly sqlite: SQLite.Database) {}

  get(sql: string): SQLite.Statement {
    let statement = this.statements.get(sql);
    if (statement) return statement;
    // Keyed by the text as written; compiled with opaque parameters (opaque-parameters.ts says why).
    statement = this.sqlite.prepare(withOpaqueParameters(sql));
    if (this.statements.size >= MAX_STATEMENTS) {
      const oldest = this.statements.keys().next();
      if (!oldest.done) this.statements.delete(oldest.value);
    }
    this.statements.set(sql, statement);
    return statement;
  }
}

const caches = new WeakMap<SQLite.Database, StatementCache>();

export function statementCache(sqlite: SQLite.Database): StatementCache {
  let cache = caches.get(sqlite);
  if (!cache) caches.set(sqlite, (cache = new StatementCache(sqlite)));
  return cache;
}
