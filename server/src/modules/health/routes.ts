import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppDeps } from '../../lib/deps';

/** Liveness plus a database round trip, for load balancers and the start script. */
export function healthRoutes(deps: AppDeps) {
  return new Hono().get('/', async (c) => {
    try {
      await sql`select 1`.execute(deps.db);
      return c.json({ ok: true });
    } catch {
      return c.json({ ok: false }, 503);
    }
  });
}
