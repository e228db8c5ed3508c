import { spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ServerNode } from '../load/types';
import { childPids } from '../shared/proc';
import type { Deployment } from './deployment';
import { stopOnInterrupt } from './interrupt';
import { startPrivatePostgres, type PrivatePostgres } from './private-postgres';
import { startPrivateRedis, type PrivateRedis } from './private-redis';
import { freePort, raisePriority, stopProcesses } from './processes';
import { benchDir, LABELS, startTargetServer, TARGETS, tsxNode, type TargetSpec } from './targets';

const NODES = 2;

/**
 * `ours-pg2`: our server as a deployment of two nodes on one PostgreSQL and one Redis, all of the run's own
 * (private-postgres.ts, private-redis.ts). The database is seeded with the benchmark's population
 * (ours/seed-postgres.ts, which also migrates it), then the nodes start one after the other on the shared
 * data folder (the OTP secret and push keys there are made by the first and read by the second, as nodes
 * of a deployment share them), both pinned to core 0 as ours alone is. PostgreSQL and Redis are not pinned.
 */
export async function deployTwoNodesOnPostgres(dataDir: string): Promise<Deployment> {
  let postgres: PrivatePostgres | undefined;
  let redis: PrivateRedis | undefined;
  let keeper: NodeJS.Timeout | undefined;
  const nodes: ChildProcess[] = [];
  // Nodes first (they hold connections to both), then Redis, then PostgreSQL.
  const stopAll = async () => {
    clearInterval(keeper);
    await stopProcesses(nodes);
    await redis?.stop();
    await postgres?.stop();
  };
  const forget = stopOnInterrupt(stopAll);
  const stop = async () => {
    forget();
    await stopAll();
  };
  try {
    postgres = await startPrivatePostgres(await freePort());
    const postmaster = postgres.pid;
    // Each backend PostgreSQL forks for a pool's connection makes a session of its own (setsid), at
    // nice 0 beside the other sessions' test runs: raised as it appears, as the nodes are.
    const raiseAll = () => [postmaster, ...childPids(postmaster)].forEach(raisePriority);
    raiseAll();
    keeper = setInterval(raiseAll, 1000);
    redis = await startPrivateRedis(dataDir);
    seed(dataDir, postgres.url);

    const spec = nodeSpec(postgres.url, redis.url);
    const started: ServerNode[] = [];
    for (let n = 0; n < NODES; n++) {
      const { server, port } = await startTargetServer(spec, dataDir, nodes);
      started.push({ url: `http://127.0.0.1:${port}`, pid: server.pid! });
    }
    return {
      nodes: started,
      tokensFile: path.join(dataDir, 'bench-tokens.json'),
      services: { postgres: postmaster, redis: redis.pid },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function seed(dataDir: string, databaseUrl: string): void {
  const seeded = spawnSync(tsxNode[0]!, [...tsxNode.slice(1), 'ours/seed-postgres.ts'], {
    cwd: benchDir,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    stdio: 'inherit',
  });
  if (seeded.status !== 0) throw new Error('seeding the PostgreSQL database failed');
}

/** Ours as `pnpm bench` runs it alone (the same build, flags and environment), on PostgreSQL and Redis. */
function nodeSpec(databaseUrl: string, redisUrl: string): TargetSpec {
  const ours = TARGETS.ours;
  return {
    name: 'ours-pg2',
    label: LABELS['ours-pg2'],
    server(dataDir, port) {
      const command = ours.server(dataDir, port);
      return { ...command, env: { ...command.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl } };
    },
  };
}
