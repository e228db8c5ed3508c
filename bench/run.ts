/**
 * `pnpm bench`: for each server, start it pinned to core 0 on a temp data directory, run the load
 * generator pinned to core 1, and print one table. Busy loops keep both cores awake for the whole run.
 * Raw results go to bench/results/<date>.json. Environment: BENCH_TARGETS (comma list of plain-ws,
 * socketio, ours, ours-alt: BENCH_ALT_SERVER's build), BENCH_SECONDS (per rate, default 20), BENCH_RATES
 * (default 500,1000).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Target } from './load/clients';
import type { LoadConfig, LoadResult } from './load/types';
import { startBusyLoops, sessionNice, startPinned, stopProcesses, waitForExit } from './run/processes';
import { formatTable, resultRows } from './run/table';
import { benchDir, buildOurServer, startTargetServer, TARGETS } from './run/targets';
import { benchTempDir } from './shared/tmpfs';

const targets = (process.env.BENCH_TARGETS ?? 'plain-ws,socketio,ours').split(',') as Target[];
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const rates = (process.env.BENCH_RATES ?? '500,1000').split(',').map(Number);

async function runTarget(target: Target, busy: readonly ChildProcess[]): Promise<LoadResult> {
  const spec = TARGETS[target];
  process.stderr.write(`${spec.label}\n`);
  const dataDir = benchTempDir(`campus-bench-${target}-`);
  const started: ChildProcess[] = [];
  try {
    const tokensFile = spec.prepare?.(dataDir);
    const { server, port } = await startTargetServer(spec, dataDir, started);
    if (sessionNice(server.pid) !== -20) process.stderr.write('  (server priority not raised: not root?)\n');

    const out = path.join(dataDir, 'load-result.json');
    const config: LoadConfig = {
      target,
      url: `http://127.0.0.1:${port}`,
      serverPid: server.pid!,
      busyPids: busy.map((loop) => loop.pid!),
      ...(tokensFile ? { tokensFile } : {}),
      rates,
      seconds,
      warmupRate: 200,
      warmupSeconds: 3,
      drainMs: 2000,
      idleSettleMs: Number(process.env.BENCH_IDLE_SETTLE_MS ?? 3000),
      out,
    };
    const generator = startPinned(1, ['node', '--import', 'tsx', 'load.ts'], {
      cwd: benchDir,
      env: { ...process.env, BENCH_CONFIG: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    started.push(generator);
    const code = await waitForExit(generator);
    if (code !== 0) throw new Error(`the load generator failed against ${spec.label}`);
    if (busy.some((loop) => loop.exitCode !== null)) throw new Error('a busy loop stopped during the run');
    return JSON.parse(readFileSync(out, 'utf8')) as LoadResult;
  } finally {
    await stopProcesses(started.reverse());
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (targets.includes('ours') || targets.includes('ours-alt')) buildOurServer();
  const busy = startBusyLoops();
  const stop = () => void stopProcesses(busy).then(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const results: LoadResult[] = [];
  const failures: string[] = [];
  try {
    for (const target of targets) {
      try {
        results.push(await runTarget(target, busy));
      } catch (error) {
        failures.push(`${TARGETS[target].label}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await stopProcesses(busy);
  }

  const date = new Date().toISOString().slice(0, 16).replace(':', '-');
  const resultsDir = path.join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${date}.json`);
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version };
  writeFileSync(file, JSON.stringify({ date, machine, seconds, rates, results }, null, 2));
  // Formatted as the repo's `prettier --check .` expects, so a local run leaves the lint clean.
  spawnSync('pnpm', ['exec', 'prettier', '--write', file], { cwd: benchDir, stdio: 'ignore' });

  console.log(`\n${formatTable(resultRows(results))}\n`);
  console.log(`raw results: ${path.relative(process.cwd(), file)}`);
  for (const failure of failures) console.error(`FAILED ${failure}`);
  process.exit(failures.length ? 1 : 0);
}

await main();
