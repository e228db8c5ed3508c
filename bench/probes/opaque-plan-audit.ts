/**
 * A check of opaque parameters (server/src/lib/db/opaque-parameters.ts) over a test run, by hand:
 *
 *   NODE_OPTIONS="--import $PWD/bench/probes/opaque-plan-audit.ts" pnpm exec vitest run --project server
 *
 * For each statement compiled with `+?`, at its first run in each process: SQLite's plan (EXPLAIN QUERY
 * PLAN) with that run's bindings, of the text as compiled and of the same text with bare `?`, appended to
 * `$PROBE_OUT/opaque-plans-<pid>.jsonl` (PROBE_OUT defaults to the OS temp folder) with `same` true or
 * false. A `same: false` is a plan that used a bound value (a partial index matched by its value, say):
 * write that value into the query. Tests that count statements fail under it (it runs its own).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

type Run = (...args: unknown[]) => unknown;
interface Compiled {
  source: string;
  database: { prepare(sql: string): { all(...params: unknown[]): unknown[] } };
}

const file = path.join(process.env.PROBE_OUT ?? os.tmpdir(), `opaque-plans-${process.pid}.jsonl`);
const require = createRequire(path.join(process.cwd(), 'server/package.json'));
let Database: (new (file: string) => { prepare(sql: string): object }) | undefined;
try {
  Database = require('better-sqlite3') as typeof Database;
} catch {
  // A process without the server's better-sqlite3 (a browser test's worker): nothing to audit.
}

if (Database) {
  const statement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<
    string,
    Run
  >;
  const seen = new Set<string>();
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = statement[method]!;
    statement[method] = function (this: Compiled, ...params: unknown[]) {
      const compiled = this.source;
      if (compiled.includes('+?') && !compiled.startsWith('EXPLAIN') && !seen.has(compiled)) {
        seen.add(compiled);
        try {
          const plan = (sql: string) =>
            (this.database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
              .map((row) => row.detail)
              .join(' | ');
          const opaque = plan(compiled);
          const bare = plan(compiled.replace(/\+\?/g, '?'));
          const sql = compiled.replace(/\s+/g, ' ');
          fs.appendFileSync(file, `${JSON.stringify({ same: opaque === bare, sql, opaque, bare })}\n`);
        } catch {
          // A statement EXPLAIN cannot take as it is (or a busy handle): not audited.
        }
      }
      return original.apply(this, params);
    };
  }
}
