import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SERVER_MSG, moderateBodySchema } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { moderate } from '../../lib/moderation';
import { apiCors } from '../../lib/security-headers';
import { readBody } from '../../lib/validate';

/** Per user: the composer previews after each 400 ms pause in typing, so a fast writer stays well under. */
export const MODERATION_RATE = { limit: 120, windowMs: 60_000 };
/** The schema allows 5000 characters of text; JSON escaping can at most sextuple that. */
const MAX_BODY = 32 * 1024;

/**
 * The spec's moderation service, `POST /moderation/moderate { text }`, served by our server. It lives
 * outside /api (the spec gives it its own base), so it brings the API's CORS rule and body limit along.
 */
export function moderationRoutes(deps: AppDeps) {
  const previews = deps.rates.limiter('moderation.preview', MODERATION_RATE);
  return new Hono<AuthEnv>()
    .use('*', apiCors())
    .post(
      '/moderate',
      bodyLimit({ maxSize: MAX_BODY, onError: (c) => c.json({ error: SERVER_MSG.bodyTooLarge }, 413) }),
      requireUser(deps),
      async (c) => {
        await previews.consume(c.get('user').id);
        const { text } = await readBody(c, moderateBodySchema);
        return c.json(moderate(text));
      },
    );
}
