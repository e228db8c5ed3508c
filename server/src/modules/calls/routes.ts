import { Hono } from 'hono';
import { callLogsQuerySchema } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { readQuery } from '../../lib/http/request';
import { callLogsPage } from './history';
import { rtcConfigFor } from './turn';

/**
 * `GET /api/users/call-logs`: the signed-in user's call history (spec 000, Call history). Mounted at /api
 * before the directory, whose /api/users/:userId would take it. Reading one's history is open to every
 * account.
 */
export function callLogRoutes(deps: AppDeps) {
  const auth = requireUser(deps);
  return new Hono<AuthEnv>().get('/users/call-logs', auth, async (c) =>
    c.json(await callLogsPage(deps, c.get('user').id, readQuery(c, callLogsQuerySchema))),
  );
}

/**
 * `GET /api/rtc/config`: the ICE servers for the signed-in user's calls. Open to every account: answering
 * a call needs them too, and a limited account may answer.
 */
export function rtcRoutes(deps: AppDeps) {
  return new Hono<AuthEnv>().use(requireUser(deps)).get('/config', (c) => {
    // Credentials: never kept by a cache.
    c.header('Cache-Control', 'no-store');
    return c.json(rtcConfigFor(deps.config, c.get('user').id, deps.now()));
  });
}
