/**
 * A probe for a server run by hand (`BENCH_SERVER_NODE_ARGS="--import ./bench/probes/statement-times.ts"`):
 * the wall time of every SQLite statement the server runs (better-sqlite3's `all`, `get`, `run` and
 * `iterate`), summed per statement text, from the start until the first statement whose text matches
 * PROBE_UNTIL_SQL (default `INSERT INTO group_messages`: `pnpm bench`'s connect phase, before its first
 * message) or until the process exits. Written to `$PROBE_OUT/statements-<pid>.txt` (PROBE_OUT defaults to
 * the OS temp folder), dearest first: calls, total ms, µs a call, the text. It is how STAT4's recompiles
 * were found (bench/HISTORY.md, "This session's VM"): a statement far dearer than its plan says is compiled
 * anew.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

type Run = (...args: unknown[]) => unknown;
interface Totals {
  calls: number;
  ns: bigint;
}

const file = path.join(process.env.PROBE_OUT ?? os.tmpdir(), `statements-${process.pid}.txt`);
const until = new RegExp(process.env.PROBE_UNTIL_SQL ?? 'INSERT INTO group_messages', 'i');
// The server's own better-sqlite3 (the probe runs in the server's process, cwd the repository).
const Database = createRequire(path.join(process.cwd(), 'server/package.json'))('better-sqlite3') as new (
  file: string,
) => { prepare(sql: string): object };
const statement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<string, Run>;
const totals = new Map<string, Totals>();
let recording = true;

function report(): void {
  if (!recording) return;
  recording = false;
  const rows = [...totals].sort((a, b) => Number(b[1].ns - a[1].ns));
  const lines = rows.map(([sql, t]) => {
    const ms = Number(t.ns) / 1e6;
    return `${String(t.calls).padStart(7)} ${ms.toFixed(1).padStart(8)} ms ${((ms * 1000) / t.calls).toFixed(1).padStart(7)} µs  ${sql}`;
  });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

for (const method of ['all', 'get', 'run', 'iterate']) {
  const original = statement[method]!;
  statement[method] = function (this: { source: string }, ...args: unknown[]) {
    if (!recording) return original.apply(this, args);
    if (until.test(this.source)) {
      report();
      return original.apply(this, args);
    }
    const started = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      const sql = this.source.replace(/\s+/g, ' ').slice(0, 160);
      const t = totals.get(sql) ?? { calls: 0, ns: 0n };
      t.calls++;
      t.ns += process.hrtime.bigint() - started;
      totals.set(sql, t);
    }
  };
}
process.on('exit', report);
