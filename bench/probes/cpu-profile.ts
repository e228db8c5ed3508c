/**
 * A probe for a server run by hand (`BENCH_SERVER_NODE_ARGS="--import ./bench/probes/cpu-profile.ts"`): a V8
 * CPU profile of the server from its start until the first SQLite statement whose text matches
 * PROBE_UNTIL_SQL (default `INSERT INTO group_messages`: `pnpm bench`'s connect phase, before its first
 * message) or until the process exits. `node --cpu-prof` profiles the whole run, where the message phase
 * buries the connects. Written to `$PROBE_OUT/cpu-<pid>.cpuprofile` (PROBE_OUT defaults to the OS temp
 * folder); open it in Chrome's DevTools or summarise its self times by function.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

type Run = (...args: unknown[]) => unknown;

const file = path.join(process.env.PROBE_OUT ?? os.tmpdir(), `cpu-${process.pid}.cpuprofile`);
const until = new RegExp(process.env.PROBE_UNTIL_SQL ?? 'INSERT INTO group_messages', 'i');
// The server's own better-sqlite3 (the probe runs in the server's process, cwd the repository).
const Database = createRequire(path.join(process.cwd(), 'server/package.json'))('better-sqlite3') as new (
  file: string,
) => { prepare(sql: string): object };
const statement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<string, Run>;

const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 200 });
session.post('Profiler.start');
let recording = true;

function stop(): void {
  if (!recording) return;
  recording = false;
  // Synchronous with a connected in-thread session: the profile is written before the process goes on.
  session.post('Profiler.stop', (err, result) => {
    if (err) console.error('cpu-profile probe:', err);
    else fs.writeFileSync(file, JSON.stringify(result.profile));
  });
}

for (const method of ['all', 'get', 'run', 'iterate']) {
  const original = statement[method]!;
  statement[method] = function (this: { source: string }, ...args: unknown[]) {
    if (recording && until.test(this.source)) stop();
    return original.apply(this, args);
  };
}
process.on('exit', stop);
