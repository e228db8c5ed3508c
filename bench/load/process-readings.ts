import { childPids, processCpuMicros, processRssKb, processTreeCpuMicros } from '../shared/proc';
import { runQueueWaitBetween, runQueueWaitOf } from '../shared/run-queue-wait';
import type { LoadConfig } from './types';

/** What the generator reads of the run's processes at each end of a phase (µs of CPU, run-queue wait). */
export interface ProcessReading {
  /** Each node's CPU, in the order of LoadConfig.nodes. */
  nodes: number[];
  /** The postmaster's whole tree (0 without services). */
  postgres: number;
  redis: number;
  busyLoops: number;
  nodesWait: Map<number, number>;
  postgresWait: Map<number, number>;
}

export function readProcesses(config: LoadConfig): ProcessReading {
  const services = config.services;
  return {
    nodes: config.nodes.map((node) => processCpuMicros(node.pid)),
    postgres: services ? processTreeCpuMicros(services.postgres) : 0,
    redis: services ? processCpuMicros(services.redis) : 0,
    busyLoops: config.busyPids.reduce((sum, pid) => sum + processCpuMicros(pid), 0),
    nodesWait: runQueueWaitOf(config.nodes.map((node) => node.pid)),
    postgresWait: runQueueWaitOf(services ? [services.postgres, ...childPids(services.postgres)] : []),
  };
}

/** What the processes used between two readings (µs). */
export function usedBetween(before: ProcessReading, after: ProcessReading) {
  const nodes = after.nodes.map((micros, n) => micros - before.nodes[n]!);
  return {
    nodes,
    allNodes: nodes.reduce((sum, micros) => sum + micros, 0),
    postgres: after.postgres - before.postgres,
    redis: after.redis - before.redis,
    busyLoops: after.busyLoops - before.busyLoops,
    nodesWait: runQueueWaitBetween(before.nodesWait, after.nodesWait),
    postgresWait: runQueueWaitBetween(before.postgresWait, after.postgresWait),
  };
}

/** Every node's resident memory together, in KiB. */
export function totalRssKb(config: LoadConfig): number {
  return config.nodes.reduce((sum, node) => sum + processRssKb(node.pid), 0);
}
