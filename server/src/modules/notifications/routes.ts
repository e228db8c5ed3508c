import { Hono } from 'hono';
import { CONFESSION_SERVER_MSG, notificationsQuerySchema, pushSubscriptionSchema } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readId, readQuery } from '../../lib/http/request';
import { readBody } from '../../lib/validate';
import { countUnread, notificationPage } from './repo';
import { savePushSubscription } from './subscriptions';
import { markNotificationRead } from './writes';

/** Per user: a browser registers on each start; far more than that is someone filling the table. */
export const PUSH_REGISTER_RATE = { limit: 20, windowMs: 10 * 60_000 };

/** /api/notifications: the bell's list, its unread count, and marking one read. Owner only. */
export function notificationRoutes(deps: AppDeps) {
  const notFound = () => new HttpError(404, CONFESSION_SERVER_MSG.notificationNotFound);
  return new Hono<AuthEnv>()
    .use(requireUser(deps))
    .get('/', async (c) => {
      const userId = c.get('user').id;
      const { page, limit } = readQuery(c, notificationsQuerySchema);
      const [notifications, unreadCount] = await Promise.all([
        notificationPage(deps.db, userId, limit, (page - 1) * limit),
        countUnread(deps.db, userId),
      ]);
      return c.json({ notifications, unreadCount });
    })
    .get('/unread-count', async (c) => c.json({ unreadCount: await countUnread(deps.db, c.get('user').id) }))
    .put('/:id/read', async (c) => {
      const userId = c.get('user').id;
      const id = readId(c, 'id', notFound());
      const outcome = await deps.transactor.commit((tx) => markNotificationRead(tx, userId, id));
      if (outcome === 'notFound') throw notFound();
      return c.json({ unreadCount: await countUnread(deps.db, userId) });
    });
}

/**
 * Mounted at /api BEFORE the directory (/api/users/:userId): each route authenticates itself, so nothing
 * here runs for the directory's paths, and the directory's middleware never runs for these.
 */
export function pushRoutes(deps: AppDeps) {
  const auth = requireUser(deps);
  const registrations = deps.rates.limiter('notifications.push-register', PUSH_REGISTER_RATE);
  return new Hono<AuthEnv>()
    .get('/push/vapid-public-key', auth, (c) => c.json({ publicKey: deps.push.publicKey }))
    .post('/users/register-push-token', auth, async (c) => {
      const userId = c.get('user').id;
      await registrations.consume(userId);
      await savePushSubscription(deps, userId, await readBody(c, pushSubscriptionSchema));
      return c.json({ ok: true }, 201);
    });
}
