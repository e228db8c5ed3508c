import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppDeps } from '../../deps';
import type { NodeLifecycle, ReadinessCheck } from '../../lib/lifecycle';
import type { RedisLink } from '../../realtime/redis-bus';

/** Health answers are about this instant: never kept by a browser, a proxy or a CDN. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * `GET /healthz`: liveness. The process answers HTTP; nothing else is asked, so a database outage does not
 * get every node restarted. It stays 200 while the node drains.
 */
export function healthRoutes() {
  return new Hono().get('/', (c) => c.json({ ok: true }, 200, NO_STORE));
}

/**
 * `GET /readyz`: whether a load balancer should send this node traffic. 200 `{ status: 'ready', checks }`
 * when every dependency answers within the checks' timeout; 503 with the check that failed, or
 * `{ status: 'draining' }` from SIGTERM on. Only check names and states, never an error's text.
 */
export function readinessRoutes(lifecycle: NodeLifecycle) {
  return new Hono().get('/', async (c) => {
    const readiness = await lifecycle.readiness();
    return c.json(readiness, readiness.status === 'ready' ? 200 : 503, NO_STORE);
  });
}

/**
 * The checks of this node: the database (a trivial query) and, with REDIS_URL, Redis (PING on the command
 * connection): a node that cannot reach Redis would deliver nothing from other nodes, so it takes no traffic.
 */
export function readinessChecks(deps: AppDeps, redis?: Pick<RedisLink, 'client'>): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [{ name: 'database', run: () => sql`select 1`.execute(deps.db) }];
  if (redis) checks.push({ name: 'redis', run: () => redis.client.ping() });
  return checks;
}
