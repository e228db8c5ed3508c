import { Hono } from 'hono';
import { CALL_MSG, callLogsQuerySchema } from '@campus/protocol';
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

/** ICE configurations a user may fetch an hour: one per call and a few retries, not a relay to hand out. */
export const RTC_CONFIG_RATE = { limit: 60, windowMs: 60 * 60_000 };

/**
 * `GET /api/rtc/config`: the ICE servers for the signed-in user's calls. Open to every account: answering
 * a call needs them too, and a limited account may answer. Limited per user: its TURN credentials open a
 * relay (README: the coturn settings that keep that relay off private addresses).
 */
export function rtcRoutes(deps: AppDeps) {
  const fetches = deps.rates.limiter('calls.rtc-config', RTC_CONFIG_RATE);
  return new Hono<AuthEnv>().use(requireUser(deps)).get('/config', async (c) => {
    await fetches.consume(c.get('user').id, CALL_MSG.rateLimited);
    // Credentials: never kept by a cache.
    c.header('Cache-Control', 'no-store');
    return c.json(rtcConfigFor(deps.config, c.get('user').id, deps.now()));
  });
}
