import type { RedisConfig } from '../../src/config';
import type { StartOptions } from '../../src/server';
import { requireRedis, TEST_REDIS_URL, testRedisConfig } from './redis';
import { startServerProcess, type ServerProcess } from './server-process';
import { cliEnvFor, startTestServer, type TestServer } from './test-server';

/**
 * Two nodes of one deployment serving group notes: one database (node B's DATA_DIR, or its PostgreSQL
 * schema) and one Redis with a prefix of their own. Node B runs in this process (its deps and Redis link at
 * hand); node A runs main.ts in a process of its own, because @y/websocket-server keeps its documents in a
 * module global: two nodes in one process would share one document per group and hide what crosses nodes.
 */
export interface NotesNodes {
  a: ServerProcess;
  b: TestServer;
  redis: RedisConfig;
  /** The notes channel's name in Redis. */
  channel: string;
  /** Starts one more node of the deployment in a process of its own (stopping it is the caller's). */
  startNode(): Promise<ServerProcess>;
  close(): Promise<void>;
}

/** Fails (never skips) without Redis. `options` go to node B (a clock the test moves, say). */
export async function startNotesNodes(options: StartOptions = {}): Promise<NotesNodes> {
  await requireRedis();
  const redis = testRedisConfig();
  const b = await startTestServer({ ...options, config: { ...options.config, redis } });
  const startNode = async () =>
    startServerProcess({
      ...(await cliEnvFor(b.dataDir)),
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: redis.prefix,
    });
  const a = await startNode().catch(async (err: unknown) => {
    await b.close();
    throw err;
  });
  return {
    a,
    b,
    redis,
    channel: `${redis.prefix}:notes`,
    startNode,
    async close() {
      await a.stop();
      await b.close();
    },
  };
}
