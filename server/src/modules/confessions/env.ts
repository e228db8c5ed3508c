import type { AppDeps } from '../../lib/deps';
import type { Transactor } from '../../realtime/transaction';
import { ConfessionCounts } from './counts';

/**
 * What the confession writes need beside their `Tx`: the app's deps (notifications' push) and the one
 * count coalescer of this server, shared by the REST routes and the outbox handlers.
 */
export interface ConfessionEnv {
  readonly deps: AppDeps;
  readonly transactor: Transactor;
  readonly counts: ConfessionCounts;
}

/** One per server (tests run several in one process). */
const perServer = new WeakMap<AppDeps, ConfessionEnv>();

export function confessionEnv(deps: AppDeps): ConfessionEnv {
  let env = perServer.get(deps);
  if (!env) {
    const transactor = deps.transactor;
    const counts = new ConfessionCounts(transactor, (err) =>
      deps.log.error({ err }, 'sending confession counts failed'),
    );
    env = { deps, transactor, counts };
    perServer.set(deps, env);
  }
  return env;
}

/**
 * Server close: sends the counts still waiting for their window, before the database closes. The server
 * calls it on stop (see sync.ts); later count changes are not sent.
 */
export function closeConfessions(deps: AppDeps): Promise<void> {
  return perServer.get(deps)?.counts.close() ?? Promise.resolve();
}
