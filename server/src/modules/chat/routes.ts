import { Hono } from 'hono';
import { CHAT_SERVER_MSG, pageQuerySchema } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readId, readQuery } from '../../lib/http/request';
import { directPage } from './read-repo';

/**
 * GET /api/chat/:partnerId?page&limit: a direct chat's history, newest first per page. Only the two
 * participants' messages are ever read (the pair key includes the caller), so there is nothing to leak;
 * an unknown partner simply has an empty history.
 */
export function chatRoutes(deps: AppDeps) {
  const userNotFound = () => new HttpError(404, CHAT_SERVER_MSG.userNotFound);
  // Per route, not `.use`: /api/chat/:id/attachments (attachments module) authenticates itself.
  return new Hono<AuthEnv>().get('/:partnerId', requireUser(deps), async (c) => {
    const partnerId = readId(c, 'partnerId', userNotFound());
    const { page, limit } = readQuery(c, pageQuerySchema);
    return c.json(await directPage(deps.db, c.get('user').id, partnerId, page, limit));
  });
}
