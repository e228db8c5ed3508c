import { REALTIME_TIMING, SYNC } from '@campus/protocol';

/** Tunables of the realtime channel; tests and the benchmark override some through StartOptions.realtime. */
export interface RealtimeOptions {
  heartbeatMs: number;
  deadPeerMs: number;
  helloTimeoutMs: number;
  pullPageSize: number;
  /** Token bucket per user for mutations and typing. */
  ratePerSecond: number;
  rateBurst: number;
  /** online_count goes out to everyone at most this often. */
  onlineCountEveryMs: number;
  /** Delivery receipts are gathered this long and written in one transaction. */
  deliveryBatchMs: number;
  /**
   * 0 (the default): group commit adapts to the load, with no delay when idle (the frames read in one
   * event-loop turn share a commit, and so do those arriving while one is in flight). Above 0: a batch is
   * held open this long (ms) first, trading latency for fewer commits (realtime/mutation-batch.ts).
   */
  commitWindowMs: number;
  /** Tabs and devices of one user; more is a script holding sockets open, refused at hello. */
  maxConnectionsPerUser: number;
  /**
   * REDIS_URL: a node that stops renewing its presence lease this long (a crash, a lost connection) no
   * longer counts its users online (realtime/redis-presence.ts).
   */
  presenceLeaseMs: number;
}

export const DEFAULT_REALTIME_OPTIONS: RealtimeOptions = {
  heartbeatMs: REALTIME_TIMING.heartbeatMs,
  deadPeerMs: REALTIME_TIMING.deadPeerMs,
  helloTimeoutMs: REALTIME_TIMING.helloTimeoutMs,
  pullPageSize: SYNC.pullPageSize,
  ratePerSecond: 30,
  rateBurst: 60,
  onlineCountEveryMs: 2000,
  deliveryBatchMs: 10,
  commitWindowMs: 0,
  maxConnectionsPerUser: 20,
  presenceLeaseMs: 15_000,
};
