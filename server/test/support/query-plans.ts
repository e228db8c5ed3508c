import type SQLite from 'better-sqlite3';
import { withOpaqueParameters } from '../../src/lib/db/opaque-parameters';
import { StatementCache } from '../../src/lib/db/statement-cache';

/**
 * SQLite's plan of every SELECT that `run` asks of the handle's statement cache (Kysely's queries and the
 * engine's), as the cache compiles it: `EXPLAIN QUERY PLAN` with a dummy value for each `?`.
 */
export async function selectPlansOf(sqlite: SQLite.Database, run: () => Promise<unknown>): Promise<string[]> {
  const plans: string[] = [];
  const get = StatementCache.prototype.get;
  StatementCache.prototype.get = function (this: StatementCache, source: string) {
    if (/^select/i.test(source.trim())) {
      const dummies = Array.from(source.matchAll(/\?/g), () => 'x');
      const rows = sqlite.prepare(`EXPLAIN QUERY PLAN ${withOpaqueParameters(source)}`).all(...dummies) as {
        detail: string;
      }[];
      plans.push(rows.map((r) => r.detail).join(' | '));
    }
    return get.call(this, source);
  };
  try {
    await run();
  } finally {
    StatementCache.prototype.get = get;
  }
  return plans;
}
