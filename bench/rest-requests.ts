/**
 * Authenticated REST requests against our built server (by hand, not part of `pnpm bench`):
 * `taskset -c 1 node --import tsx rest-requests.ts` from bench/. The server is `pnpm bench`'s (built,
 * seeded with its 1,000 students and 50 groups, pinned to core 0, busy loops on both cores); this process
 * sends the requests from core 1. Reported per round: the server's CPU per request (utime + stime over the
 * measured requests, after a warm-up) and the wall time per request.
 *
 * Environment: REST_PATHS (comma list, default five GETs a signed-in student's screens make), REST_REQUESTS
 * (measured per round, default 4,000, each path in turn), REST_CONCURRENCY (in flight, default 8),
 * BENCH_ROUNDS (default 3), BENCH_ALT_SERVER (another build's server/dist/main.js, run alternately with
 * this one, each round's ratio printed: a before/after in one run on a VM whose speed moves).
 */
import { readFileSync, rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { deploySingleNode } from './run/deployment';
import { startBusyLoops, stopProcesses } from './run/processes';
import { buildOurServer, TARGETS } from './run/targets';
import { processCpuMicros } from './shared/proc';
import { benchTempDir } from './shared/tmpfs';

const paths = (
  process.env.REST_PATHS ??
  '/api/notifications,/api/auth/me,/api/conversations,/api/users/friends,/api/confessions/feed'
).split(',');
const requests = Number(process.env.REST_REQUESTS ?? 4000);
const concurrency = Number(process.env.REST_CONCURRENCY ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const targets = process.env.BENCH_ALT_SERVER ? (['ours-alt', 'ours'] as const) : (['ours'] as const);

interface RoundResult {
  cpuMicrosPerRequest: number;
  wallMicrosPerRequest: number;
}

async function send(url: string, count: number, tokens: string[], offset: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = offset + next++;
      const path = paths[i % paths.length]!;
      const res = await fetch(url + path, {
        headers: { authorization: `Bearer ${tokens[i % tokens.length]}` },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function measure(target: (typeof targets)[number]): Promise<RoundResult> {
  const dataDir = benchTempDir(`campus-rest-${target}-`);
  const deployment = await deploySingleNode(TARGETS[target], dataDir);
  try {
    const node = deployment.nodes[0]!;
    const tokens = JSON.parse(readFileSync(deployment.tokensFile!, 'utf8')) as string[];
    await send(node.url, 1000, tokens, 0);
    const cpuBefore = processCpuMicros(node.pid);
    const started = performance.now();
    await send(node.url, requests, tokens, 1000);
    const wallMicros = (performance.now() - started) * 1000;
    const cpuMicros = processCpuMicros(node.pid) - cpuBefore;
    return { cpuMicrosPerRequest: cpuMicros / requests, wallMicrosPerRequest: wallMicros / requests };
  } finally {
    await deployment.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

buildOurServer();
const busy: ChildProcess[] = startBusyLoops();
try {
  console.log(`${requests} requests a round, ${concurrency} in flight, over ${paths.join(' ')}`);
  for (let round = 1; round <= rounds; round++) {
    const results = new Map<string, RoundResult>();
    for (const target of targets) {
      const result = await measure(target);
      results.set(target, result);
      console.log(
        `round ${round} ${target.padEnd(8)} ${result.cpuMicrosPerRequest.toFixed(0)} µs CPU/request, ` +
          `${result.wallMicrosPerRequest.toFixed(0)} µs wall/request`,
      );
    }
    const alt = results.get('ours-alt');
    const ours = results.get('ours')!;
    if (alt)
      console.log(
        `round ${round} ours/alt CPU ${(ours.cpuMicrosPerRequest / alt.cpuMicrosPerRequest).toFixed(2)}`,
      );
  }
} finally {
  await stopProcesses(busy);
}
