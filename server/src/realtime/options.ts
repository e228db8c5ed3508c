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
  /** Mutations arriving within this window share one transaction (0: those of one event-loop turn). */
  commitWindowMs: number;
  /** Tabs and devices of one user; more is a script holding sockets open, refused at hello. */
  maxConnectionsPerUser: number;
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
  commitWindowMs: 1,
  maxConnectionsPerUser: 20,
};
