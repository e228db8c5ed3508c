import { Hono } from 'hono';
import { CHAT_SERVER_MSG, userDirectoryQuerySchema } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readId, readQuery } from '../../lib/http/request';
import { findPublicProfile, searchUsers } from './repo';

/**
 * Per user, searches and profile reads together: a name search is a substring scan along the directory
 * index (no index can seek a substring), and walking the directory profile by profile is how a bot would harvest it. Far above what a
 * person typing in the member search does.
 */
export const DIRECTORY_RATE = { limit: 120, windowMs: 60_000 };

/** GET /api/users (one page, names and avatars only) and GET /api/users/:userId: the student directory. */
export function directoryRoutes(deps: AppDeps) {
  const userNotFound = () => new HttpError(404, CHAT_SERVER_MSG.userNotFound);
  const reads = deps.rates.limiter('directory.read', DIRECTORY_RATE);
  return new Hono<AuthEnv>()
    .use(requireUser(deps))
    .use(async (c, next) => {
      await reads.consume(c.get('user').id);
      await next();
    })
    .get('/', async (c) => {
      return c.json(await searchUsers(deps.db, c.get('user').id, readQuery(c, userDirectoryQuerySchema)));
    })
    .get('/:userId', async (c) => {
      const profile = await findPublicProfile(deps.db, c.get('user').id, readId(c, 'userId', userNotFound()));
      if (!profile) throw userNotFound();
      return c.json(profile);
    });
}
