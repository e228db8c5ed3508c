import { Hono } from 'hono';
import { randomCountsQuerySchema, type RandomCounts } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { readQuery } from '../../lib/http/request';
import { RateLimiter } from '../../lib/rate-limit';
import { blockedOf } from './load';
import { randomStateOf } from './state';
import { countMatches } from './students';

/** Counts per user and minute: the filter dialog asks again as chips toggle. */
export const RANDOM_COUNTS_RATE = { limit: 60, windowMs: 60_000 };

/**
 * `GET /api/random/counts?filters=<JSON>`: how many students online now could be matched with the asker and
 * satisfy every chosen group, and how many of them wait in each queue (randomCountsSchema). Counted from the
 * online students' cached profiles and the queues, with one indexed read of the asker's blocks. Open to
 * every signed-in account (it reveals no one); rate limited.
 */
export function randomRoutes(deps: AppDeps) {
  const asks = new RateLimiter(RANDOM_COUNTS_RATE, deps.now);
  const state = randomStateOf(deps);
  return new Hono<AuthEnv>().use(requireUser(deps)).get('/counts', async (c) => {
    const userId = c.get('user').id;
    asks.consume(userId);
    const { filters } = readQuery(c, randomCountsQuerySchema);
    const blocked = await deps.transactor.read((tx) => blockedOf(tx, userId));
    const counts: RandomCounts = countMatches(
      userId,
      blocked,
      filters,
      state.students.all(),
      (id) => state.queues.waiting(id)?.kind,
    );
    c.header('Cache-Control', 'no-store');
    return c.json(counts);
  });
}
