import { Hono } from 'hono';
import { CHAT, CHAT_SERVER_MSG, createGroupBodySchema, pageQuerySchema } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { fullAccessOnly } from '../../lib/auth/access';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { readBody } from '../../lib/validate';
import { readQuery } from '../../lib/http/request';
import { findGroup, groupPage } from '../chat';
import { groupNotFound, memberGroupId } from './access';
import { createGroup } from './service';

/** Per user: plenty for real use, not enough to spam everyone's conversation list. */
export const GROUP_CREATE_RATE = { limit: 10, windowMs: 10 * 60_000 };

/**
 * People a user may add to new groups per hour who are not yet their contacts (no direct chat with a
 * message, no shared group). A group makes its members contacts and its messages reach them uncapped, so
 * without this budget ten 100-member groups every ten minutes would reach the whole directory around the
 * direct-message limits. One full group of new people an hour (a class, a new study group) always fits, so
 * no single request can be refused for good; contacts are never counted.
 */
export const GROUP_STRANGERS_RATE = { limit: CHAT.maxGroupMembers, windowMs: 60 * 60_000 };

/** /api/groups: create a group; a group and its history, for members only. */
export function groupRoutes(deps: AppDeps) {
  const creations = deps.rates.limiter('groups.create', GROUP_CREATE_RATE);
  const strangerAdds = deps.rates.limiter('groups.strangers', GROUP_STRANGERS_RATE);
  // Per route, not `.use`: /api/groups/:id/attachments (attachments module) authenticates itself.
  const auth = requireUser(deps);
  // Creating a group (with its members) is taking part under the access policy; reading is not.
  const participates = fullAccessOnly(deps.config.verificationPolicy);
  return new Hono<AuthEnv>()
    .post('/', auth, participates, async (c) => {
      const body = await readBody(c, createGroupBodySchema);
      const userId = c.get('user').id;
      await creations.consume(userId);
      const group = await createGroup(deps, userId, body, {
        admitStrangers: (count) => strangerAdds.consume(userId, CHAT_SERVER_MSG.tooManyNewMembers, count),
      });
      return c.json(group, 201);
    })
    .get('/:groupId', auth, async (c) => {
      const group = await findGroup(deps.db, await memberGroupId(c, deps.db, c.get('user').id));
      if (!group) throw groupNotFound();
      return c.json(group);
    })
    .get('/:groupId/messages', auth, async (c) => {
      const groupId = await memberGroupId(c, deps.db, c.get('user').id);
      const { page, limit } = readQuery(c, pageQuerySchema);
      return c.json(await groupPage(deps.db, groupId, page, limit));
    });
}
