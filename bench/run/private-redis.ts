import { freePort, startRaised, stopProcesses, waitForPort } from './processes';

const REDIS_SERVER = process.env.BENCH_REDIS_SERVER ?? 'redis-server';

export interface PrivateRedis {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A redis-server of the run's own on a free port, without persistence (nothing to write, nothing to
 * clean up), in a raised session like the nodes: never the machine's shared one on 6379, which other
 * sessions' tests use. Unpinned, as PostgreSQL: the generator counts its CPU apart.
 */
export async function startPrivateRedis(cwd: string): Promise<PrivateRedis> {
  const port = await freePort();
  const redis = startRaised(
    [REDIS_SERVER, '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { cwd, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const stop = () => stopProcesses([redis]);
  try {
    await waitForPort(port, redis);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, pid: redis.pid!, stop };
}
