/**
 * `pnpm bench`: for each server, start it pinned to core 0 on a temp data directory, run the load
 * generator pinned to core 1, and print one table. Busy loops keep both cores awake for the whole run.
 * Raw results go to bench/results/<date>.json. Environment: BENCH_TARGETS (comma list of plain-ws,
 * socketio, ours, ours-alt: BENCH_ALT_SERVER's build, ours-pg2: two nodes on a private PostgreSQL + Redis),
 * BENCH_SECONDS (per rate, default 20), BENCH_RATES (default 500,1000), BENCH_ROUNDS (default 1: the targets
 * in order that many times, then each round's table and the medians of the ratios to each round's plain ws).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Target } from './load/clients';
import type { LoadConfig, LoadResult } from './load/types';
import { deploySingleNode, type Deployment } from './run/deployment';
import { handleInterrupts, stopOnInterrupt } from './run/interrupt';
import { startBusyLoops, sessionNice, startPinned, stopProcesses, waitForExit } from './run/processes';
import { formatNodeTable, formatRoundTable, formatTable, nodeRows, resultRows, roundRows } from './run/table';
import { benchDir, buildOurServer, generatorNode, LABELS, TARGETS } from './run/targets';
import { deployTwoNodesOnPostgres } from './run/two-nodes-postgres';
import { benchTempDir } from './shared/tmpfs';

const targets = (process.env.BENCH_TARGETS ?? 'plain-ws,socketio,ours').split(',') as Target[];
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const rates = (process.env.BENCH_RATES ?? '500,1000').split(',').map(Number);
const roundCount = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 1)));

function deploy(target: Target, dataDir: string): Promise<Deployment> {
  return target === 'ours-pg2'
    ? deployTwoNodesOnPostgres(dataDir)
    : deploySingleNode(TARGETS[target], dataDir);
}

async function runTarget(target: Target, busy: readonly ChildProcess[]): Promise<LoadResult> {
  process.stderr.write(`${LABELS[target]}\n`);
  const dataDir = benchTempDir(`campus-bench-${target}-`);
  let deployment: Deployment | undefined;
  const generators: ChildProcess[] = [];
  // Also on Ctrl-C (the deployment registers its own stop as well, for an interrupt while it starts).
  const cleanUp = async () => {
    await stopProcesses(generators);
    await deployment?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const forget = stopOnInterrupt(cleanUp);
  try {
    deployment = await deploy(target, dataDir);
    if (deployment.nodes.some((node) => sessionNice(node.pid) !== -20))
      process.stderr.write('  (server priority not raised: not root?)\n');

    const out = path.join(dataDir, 'load-result.json');
    const config: LoadConfig = {
      target,
      nodes: deployment.nodes,
      ...(deployment.services ? { services: deployment.services } : {}),
      busyPids: busy.map((loop) => loop.pid!),
      ...(deployment.tokensFile ? { tokensFile: deployment.tokensFile } : {}),
      rates,
      seconds,
      warmupRate: 200,
      warmupSeconds: 3,
      drainMs: 2000,
      maxDrainMs: 30_000,
      idleSettleMs: Number(process.env.BENCH_IDLE_SETTLE_MS ?? 3000),
      out,
    };
    const generator = startPinned(1, [...generatorNode(), 'load.ts'], {
      cwd: benchDir,
      env: { ...process.env, BENCH_CONFIG: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    generators.push(generator);
    const code = await waitForExit(generator);
    if (code !== 0) throw new Error(`the load generator failed against ${LABELS[target]}`);
    if (busy.some((loop) => loop.exitCode !== null)) throw new Error('a busy loop stopped during the run');
    return JSON.parse(readFileSync(out, 'utf8')) as LoadResult;
  } finally {
    forget();
    await cleanUp();
  }
}

async function main(): Promise<void> {
  if (targets.some((target) => target.startsWith('ours'))) buildOurServer();
  const busy = startBusyLoops();
  stopOnInterrupt(() => stopProcesses(busy));
  handleInterrupts();
  const rounds: LoadResult[][] = [];
  const failures: string[] = [];
  try {
    for (let round = 1; round <= roundCount; round++) {
      if (roundCount > 1) process.stderr.write(`round ${round} of ${roundCount}\n`);
      const results: LoadResult[] = [];
      rounds.push(results);
      for (const target of targets) {
        try {
          results.push(await runTarget(target, busy));
        } catch (error) {
          failures.push(`${LABELS[target]}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
  } finally {
    await stopProcesses(busy);
  }
  const results = rounds[0] ?? [];

  const date = new Date().toISOString().slice(0, 16).replace(':', '-');
  const resultsDir = path.join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${date}.json`);
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version };
  const raw = roundCount > 1 ? { rounds } : { results };
  writeFileSync(file, JSON.stringify({ date, machine, seconds, rates, ...raw }, null, 2));
  // Formatted as the repo's `prettier --check .` expects, so a local run leaves the lint clean.
  spawnSync('pnpm', ['exec', 'prettier', '--write', file], { cwd: benchDir, stdio: 'ignore' });

  for (const [i, round] of rounds.entries()) {
    if (roundCount > 1) console.log(`\nround ${i + 1}`);
    console.log(`\n${formatTable(resultRows(round))}\n`);
    const multiNode = nodeRows(round);
    if (multiNode.length) console.log(`${formatNodeTable(multiNode)}\n`);
  }
  if (roundCount > 1) console.log(`${formatRoundTable(roundRows(rounds))}\n`);
  console.log(`raw results: ${path.relative(process.cwd(), file)}`);
  for (const failure of failures) console.error(`FAILED ${failure}`);
  process.exit(failures.length ? 1 : 0);
}

await main();
