import type { ChildProcess } from 'node:child_process';
import type { ServerNode, ServicePids } from '../load/types';
import { stopOnInterrupt } from './interrupt';
import { stopProcesses } from './processes';
import { startTargetServer, type TargetSpec } from './targets';

/** A server under test as the generator meets it: one node or several, and their shared services. */
export interface Deployment {
  nodes: ServerNode[];
  /** The generator's session tokens (ours). */
  tokensFile?: string;
  /** PostgreSQL and Redis of a multi-node deployment, measured apart. */
  services?: ServicePids;
  /** Stops everything it started (nodes first) and removes what it made outside the run's data folder. */
  stop(): Promise<void>;
}

/** One server process on `dataDir` (SQLite or the baselines' own store), pinned to core 0. */
export async function deploySingleNode(spec: TargetSpec, dataDir: string): Promise<Deployment> {
  const started: ChildProcess[] = [];
  const stopAll = () => stopProcesses(started);
  const forget = stopOnInterrupt(stopAll);
  const stop = async () => {
    forget();
    await stopAll();
  };
  try {
    const tokensFile = spec.prepare?.(dataDir);
    const { server, port } = await startTargetServer(spec, dataDir, started);
    return {
      nodes: [{ url: `http://127.0.0.1:${port}`, pid: server.pid! }],
      ...(tokensFile ? { tokensFile } : {}),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
