import type { Target } from './clients';
import type { PhaseSummary } from './tracker';

/** What run.ts hands the generator (as JSON in BENCH_CONFIG) and what it writes back. */
export interface LoadConfig {
  target: Target;
  url: string;
  serverPid: number;
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
  /** Wait after the last client connected before reading the server's idle memory. */
  idleSettleMs: number;
  out: string;
}

export interface PhaseResult extends PhaseSummary {
  rate: number;
  seconds: number;
  serverCpuMicros: number;
  cpuMicrosPerDelivery: number;
  generatorCpuPercent: number;
  stealPercent: { all: number; cpu0: number; cpu1: number };
  /** CPU used by processes other than server, generator and busy loops, in % of one core: another
   *  program on this shared machine competes with the pinned server and generator when this is high. */
  otherLoadPercent: number;
}

export interface LoadResult {
  target: Target;
  connectMs: number;
  rssBeforeKb: number;
  rssIdleKb: number;
  idleKbPerConnection: number;
  errors: Record<string, number>;
  phases: PhaseResult[];
}
