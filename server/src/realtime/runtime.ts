import { CLOSE_CODES } from '@campus/protocol';
import type { AppDeps } from '../deps';
import type { RealtimeEngine } from './engine';
import type { Hub } from './hub';
import { MutationBatch } from './mutation-batch';
import type { RealtimeOptions } from './options';
import { Presence } from './presence';
import { TokenBuckets } from './rate-limiter';
import type { Features } from './registry';
import type { EngineTransactor } from './engine-transactor';
import { HeartbeatSockets } from './heartbeat';

/**
 * What every `/ws` connection shares: the engine, the features, presence, rate limits and the heartbeat.
 * `deps` is the engine's own (sign-in, live-socket registry, log): features never see it through here.
 */
export interface Runtime {
  deps: AppDeps;
  hub: Hub;
  transactor: EngineTransactor;
  options: RealtimeOptions;
  features: Features;
  presence: Presence;
  rates: TokenBuckets;
  mutations: MutationBatch;
  /** Every open socket, authenticated or not, and the heartbeat that pings them. */
  sockets: HeartbeatSockets;
}

export function createRuntime(deps: AppDeps, engine: RealtimeEngine, features: Features): Runtime {
  const { hub, transactor, options } = engine;
  const rt: Runtime = {
    deps,
    hub,
    transactor,
    options,
    features,
    presence: new Presence(hub, {
      everyMs: options.onlineCountEveryMs,
      now: deps.now,
      wentOffline: (userId, at) => features.session.wentOffline(userId, at),
      contactsOf: (userIds) => features.session.contactsOf(userIds),
      log: deps.log,
    }),
    rates: new TokenBuckets(options.ratePerSecond, options.rateBurst, Date.now),
    sockets: new HeartbeatSockets(options),
    mutations: new MutationBatch(
      transactor,
      features.mutations,
      features.participation,
      deps.log,
      options.commitWindowMs,
      () => hub.closed,
    ),
  };

  rt.sockets.start();

  // A drain: what was received is committed and answered, then every socket is told to go elsewhere. Both
  // happen in one turn after the batch settles, so no frame read in between is left without its answer.
  hub.onDrain(async () => {
    await rt.mutations.settle();
    for (const target of rt.sockets) target.drain();
  });

  hub.onClose(() => {
    rt.sockets.stop();
    rt.presence.close();
    for (const target of rt.sockets) target.ws.close(CLOSE_CODES.shuttingDown, 'server shutting down');
  });
  return rt;
}
