import { Hono } from 'hono';
import { CHAT_SERVER_MSG, userDirectoryQuerySchema } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readId, readQuery } from '../conversations/request';
import { findPublicProfile, searchUsers } from './repo';

/** GET /api/users and GET /api/users/:userId: the student directory. */
export function directoryRoutes(deps: AppDeps) {
  const userNotFound = () => new HttpError(404, CHAT_SERVER_MSG.userNotFound);
  return new Hono<AuthEnv>()
    .use(requireUser(deps))
    .get('/', async (c) => {
      const { q, limit } = readQuery(c, userDirectoryQuerySchema);
      return c.json(await searchUsers(deps.db, c.get('user').id, q, limit));
    })
    .get('/:userId', async (c) => {
      const profile = await findPublicProfile(deps.db, readId(c, 'userId', userNotFound()));
      if (!profile) throw userNotFound();
      return c.json(profile);
    });
}
