import { Hono } from 'hono';
import type { AppDeps } from '../../lib/deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { listConversations } from '../chat';

/** The Talk home's recent conversations; the sync engine keeps the same list live after this. */
export const CONVERSATIONS_LIMIT = 100;

export function conversationRoutes(deps: AppDeps) {
  return new Hono<AuthEnv>()
    .use(requireUser(deps))
    .get('/', async (c) => c.json(await listConversations(deps.db, c.get('user').id, CONVERSATIONS_LIMIT)));
}
