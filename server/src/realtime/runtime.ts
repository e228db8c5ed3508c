import type WebSocket from 'ws';
import type { AppDeps } from '../lib/deps';
import { DeliveryReceipts } from './delivery';
import { hubInternals, type RealtimeHubInternals } from './hub';
import { MutationBatch } from './mutation-batch';
import type { RealtimeOptions } from './options';
import { Presence } from './presence';
import { TokenBuckets } from './rate-limiter';

/** What every connection shares: the hub, presence, receipts, rate limits and the heartbeat. */
export interface Runtime {
  deps: AppDeps;
  hub: RealtimeHubInternals;
  options: RealtimeOptions;
  presence: Presence;
  delivery: DeliveryReceipts;
  rates: TokenBuckets;
  mutations: MutationBatch;
  /** Every open socket, authenticated or not, for the heartbeat. */
  sockets: Set<HeartbeatTarget>;
}

export interface HeartbeatTarget {
  readonly ws: WebSocket;
  lastSeen: number;
  kill(): void;
}

export function createRuntime(deps: AppDeps): Runtime {
  const hub = hubInternals(deps.realtime);
  const options = hub.options;
  const rt: Runtime = {
    deps,
    hub,
    options,
    presence: new Presence(deps, hub, options.onlineCountEveryMs),
    delivery: new DeliveryReceipts(deps, options.deliveryBatchMs),
    rates: new TokenBuckets(options.ratePerSecond, options.rateBurst, Date.now),
    sockets: new Set(),
    mutations: new MutationBatch(deps, hub, options.commitWindowMs),
  };

  // Checked twice per heartbeat so a silent peer goes within deadPeerMs of its last sign of life.
  const tick = Math.max(10, Math.floor(options.heartbeatMs / 2));
  let lastPing = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    const ping = now - lastPing >= options.heartbeatMs - 5;
    if (ping) lastPing = now;
    for (const target of rt.sockets) {
      if (now - target.lastSeen >= options.deadPeerMs - tick) target.kill();
      else if (ping) target.ws.ping();
    }
  }, tick);
  timer.unref();

  hub.onClose(() => {
    clearInterval(timer);
    rt.presence.close();
    rt.delivery.close();
    for (const target of rt.sockets) target.ws.close(1001, 'server shutting down');
  });
  return rt;
}
