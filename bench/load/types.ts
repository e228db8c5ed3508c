import type { Target } from './clients';
import type { PhaseSummary } from './tracker';

/** One process of the server under test: where its clients connect, and its pid for CPU and memory. */
export interface ServerNode {
  /** http://host:port */
  url: string;
  pid: number;
}

/** The shared services of a multi-node run, measured apart from the nodes. */
export interface ServicePids {
  /** PostgreSQL's postmaster: its CPU and its backends' (live and ended) count as PostgreSQL's. */
  postgres: number;
  redis: number;
}

/** What run.ts hands the generator (as JSON in BENCH_CONFIG) and what it writes back. */
export interface LoadConfig {
  target: Target;
  /** Client i connects to nodes[i % nodes.length] (population.ts's nodeOfClient). */
  nodes: ServerNode[];
  services?: ServicePids;
  /** The run's busy loops: their CPU is left out of the other processes' load. */
  busyPids: number[];
  /** JSON array of session tokens by user index (ours only). */
  tokensFile?: string;
  rates: number[];
  seconds: number;
  warmupRate: number;
  warmupSeconds: number;
  /** Time after the last send before losses are counted. */
  drainMs: number;
  /**
   * A server that fell behind is still committing and delivering its backlog after drainMs: the generator
   * waits for it up to this long in all, so lost counts what never arrives (not what is late) and the
   * next phase does not start on the backlog. CPU is counted over the whole wait.
   */
  maxDrainMs: number;
  /** Wait after the last client connected before reading the server's idle memory. */
  idleSettleMs: number;
  out: string;
}

/** CPU time over a phase and its drain, and per delivery (all 20 members' copies). */
export interface CpuUse {
  micros: number;
  microsPerDelivery: number;
}

export interface PhaseResult extends PhaseSummary {
  rate: number;
  seconds: number;
  /** Every node's CPU together. */
  serverCpuMicros: number;
  cpuMicrosPerDelivery: number;
  /** Several nodes: each one's CPU, in the order of LoadConfig.nodes. */
  nodeCpuMicros?: number[];
  /** With LoadConfig.services. */
  postgresCpu?: CpuUse;
  redisCpu?: CpuUse;
  generatorCpuPercent: number;
  /**
   * Run-queue wait (shared/run-queue-wait.ts) over the phase and its drain, in ms per second: all nodes'
   * threads together, and PostgreSQL's processes (with LoadConfig.services).
   */
  runQueueWaitMsPerSecond: { nodes: number; postgres?: number };
  /** How long the phase's drain took (drainMs, or up to maxDrainMs while a backlog was delivered). */
  drainedMs: number;
  stealPercent: { all: number; cpu0: number; cpu1: number };
  /** CPU used by processes other than the server's nodes, its services, generator and busy loops, in % of
   *  one core: another program on this shared machine competes with the pinned server and generator when
   *  this is high. */
  otherLoadPercent: number;
}

export interface LoadResult {
  target: Target;
  nodeCount: number;
  connectMs: number;
  /** The server's CPU (every node's) while they connected, ms. */
  connectCpuMs: number;
  /** Every node's RSS together. */
  rssBeforeKb: number;
  rssIdleKb: number;
  idleKbPerConnection: number;
  errors: Record<string, number>;
  phases: PhaseResult[];
}
