import type { AppDeps } from '../../lib/deps';
import type { Transactor } from '../../realtime/transaction';
import { DelayedCommits } from './delayed-commits';
import { ConfessionCounts } from './counts';
import { ConfessionPublisher } from './publisher';

/**
 * What the confession writes need beside their `Tx`: the app's deps (notifications' push), the one count
 * coalescer and the one publisher of this server, shared by the REST routes and the outbox handlers.
 */
export interface ConfessionEnv {
  readonly deps: AppDeps;
  readonly transactor: Transactor;
  readonly counts: ConfessionCounts;
  readonly publisher: ConfessionPublisher;
  /** Notices of anonymous acts, each in a commit of its own a few seconds later (delayed-commits.ts). */
  readonly notices: DelayedCommits;
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
    const publisher = new ConfessionPublisher(transactor, (err) =>
      deps.log.error({ err }, 'announcing confessions failed'),
    );
    const notices = new DelayedCommits(transactor, (err) =>
      deps.log.error({ err }, 'sending confession notices failed'),
    );
    env = { deps, transactor, counts, publisher, notices };
    perServer.set(deps, env);
  }
  return env;
}

/**
 * Server close: announces the confessions and sends the counts still waiting, before the database closes
 * (posts first, so no card's counts go out before the card). The server calls it on stop (see sync.ts);
 * later changes wait for the next start (posts) or are not sent (counts).
 */
export async function closeConfessions(deps: AppDeps): Promise<void> {
  const env = perServer.get(deps);
  if (!env) return;
  await env.publisher.close();
  await env.notices.close();
  await env.counts.close();
}
