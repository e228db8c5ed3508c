import { Hono } from 'hono';
import { randomCountsQuerySchema, type RandomCounts, type RandomKind } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { readQuery } from '../../lib/http/request';
import { fullAccessOnly } from '../../lib/auth/access';
import { blockedByUserSql } from './repo';
import { randomStateOf, type RandomState } from './state';
import { countMatches } from './students';

/** Counts per user and minute: the filter dialog asks again as chips toggle. */
export const RANDOM_COUNTS_RATE = { limit: 60, windowMs: 60_000 };

/**
 * `GET /api/random/counts?filters=<JSON>`: how many students online now match the chosen groups, and how
 * many of them wait in each queue (randomCountsSchema). Counted from the online students' cached profiles
 * and the queues, leaving out the asker and whom the asker blocked (never who blocked the asker, which a
 * count would reveal); counts under `config.randomCountFloor` (3) read 0: a filter narrowed to one student
 * must not tell whether they are online. For those who may use random talk (the
 * access policy); rate limited.
 */
export function randomRoutes(deps: AppDeps) {
  const asks = deps.rates.limiter('random.counts', RANDOM_COUNTS_RATE);
  const state = randomStateOf(deps);
  const floor = deps.config.randomCountFloor;
  const coarse = (n: number) => (n < floor ? 0 : n);
  return new Hono<AuthEnv>()
    .use(requireUser(deps))
    .get('/counts', fullAccessOnly(deps.config.verificationPolicy), async (c) => {
      const userId = c.get('user').id;
      await asks.consume(userId);
      const { filters } = readQuery(c, randomCountsQuerySchema);
      const rows = await deps.transactor.read((tx) => tx.all(blockedByUserSql, userId, userId));
      const waitingKind = await waitingKindOf(deps, state);
      const exact = countMatches(
        userId,
        new Set(rows.map((r) => r.id)),
        filters,
        state.students.all(),
        waitingKind,
      );
      const counts: RandomCounts = {
        total: coarse(exact.total),
        waiting: {
          audio: coarse(exact.waiting.audio),
          video: coarse(exact.waiting.video),
          chat: coarse(exact.waiting.chat),
        },
      };
      c.header('Cache-Control', 'no-store');
      return c.json(counts);
    });
}

/**
 * Who waits in which queue: with REDIS_URL the deployment's shared list (the queues run on one node only);
 * this node's own queues when Redis does not answer, or without it.
 */
async function waitingKindOf(
  deps: AppDeps,
  state: RandomState,
): Promise<(userId: string) => RandomKind | undefined> {
  const local = (userId: string) => state.queues.waiting(userId)?.kind;
  if (!state.waiting) return local;
  try {
    const kinds = await state.waiting.kinds();
    return (userId) => kinds.get(userId);
  } catch (err) {
    deps.log.warn({ err }, 'random counts: the shared waiting list did not answer');
    return local;
  }
}
