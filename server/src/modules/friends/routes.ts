import { Hono } from 'hono';
import type { Context } from 'hono';
import {
  blockBodySchema,
  FRIEND_SERVER_MSG,
  friendsNextLink,
  friendsPageQuerySchema,
  sendFriendRequestBodySchema,
  type BlockedUser,
  type Friend,
  type FriendRequest,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { fullAccessOnly } from '../../lib/auth/access';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readId, readQuery } from '../../lib/http/request';
import { readBody } from '../../lib/validate';
import { toUserRef } from '../users';
import { blockUser, unblockUser } from './blocks';
import { consumeBlockRate, consumeFriendRequestRate } from './limits';
import { blocksPageSql, friendsPageSql, incomingRequestsSql } from './repo';
import { decideFriendRequest, sendFriendRequest, toFriendRequest, unfriend } from './requests';

/**
 * One keyset page of a list in user-id order (friendsPageQuerySchema): one row more than the page is read,
 * so the last page carries no `Link` and a client never asks for an empty one.
 */
async function userPage<Row extends { id: string }>(
  c: Context<AuthEnv>,
  read: (userId: string, after: string, limit: number) => Promise<Row[]>,
): Promise<Row[]> {
  const { after, limit } = readQuery(c, friendsPageQuerySchema);
  const rows = await read(c.get('user').id, after ?? '', limit + 1);
  if (rows.length <= limit) return rows;
  rows.length = limit;
  c.header('Link', friendsNextLink(c.req.path, rows[limit - 1]!.id, limit));
  return rows;
}

/**
 * Friends, friend requests and blocks under /api/users. Mounted at /api BEFORE the directory
 * (/api/users/:userId): each route authenticates itself, so nothing here runs for the directory's paths.
 * Sending a request takes part (the access policy); answering one, unfriending and blocking are open to
 * every account, like answering a message, and a limited account must be able to protect itself.
 */
export function friendRoutes(deps: AppDeps) {
  const auth = requireUser(deps);
  const participates = fullAccessOnly(deps.config.verificationPolicy);
  const requestNotFound = () => new HttpError(404, FRIEND_SERVER_MSG.requestNotFound);
  const userNotFound = () => new HttpError(404, FRIEND_SERVER_MSG.userNotFound);
  const commit = deps.transactor.commit.bind(deps.transactor);

  async function decide(userId: string, id: string, decision: 'accept' | 'reject') {
    await commit((tx) => decideFriendRequest(tx, deps, userId, id, decision));
    return { message: decision === 'accept' ? FRIEND_SERVER_MSG.accepted : FRIEND_SERVER_MSG.rejected };
  }

  return new Hono<AuthEnv>()
    .post('/users/friends/requests', auth, participates, async (c) => {
      const userId = c.get('user').id;
      const { to } = await readBody(c, sendFriendRequestBodySchema);
      await consumeFriendRequestRate(deps, userId);
      return c.json(await commit((tx) => sendFriendRequest(tx, deps, userId, to)));
    })
    .get('/users/friends/requests', auth, async (c) => {
      const rows = await deps.transactor.read((tx) => tx.all(incomingRequestsSql, c.get('user').id));
      const list: FriendRequest[] = rows.map((r) => toFriendRequest(r, toUserRef({ ...r, id: r.sender_id })));
      return c.json(list);
    })
    .put('/users/friends/requests/:id/accept', auth, async (c) =>
      c.json(await decide(c.get('user').id, readId(c, 'id', requestNotFound()), 'accept')),
    )
    .put('/users/friends/requests/:id/reject', auth, async (c) =>
      c.json(await decide(c.get('user').id, readId(c, 'id', requestNotFound()), 'reject')),
    )
    .get('/users/friends', auth, async (c) => {
      const rows = await userPage(c, (userId, after, limit) =>
        deps.transactor.read((tx) => tx.all(friendsPageSql, userId, after, userId, after, limit)),
      );
      // Online on any node (REDIS_URL), not only this one: one round trip for the page.
      const online = new Set(await deps.realtime.onlineAmongAnywhere(rows.map((r) => r.id)));
      const list: Friend[] = rows.map((r) => ({ ...toUserRef(r), online: online.has(r.id) }));
      return c.json(list);
    })
    .delete('/users/friends/:userId', auth, async (c) => {
      const userId = c.get('user').id;
      const friendId = readId(c, 'userId', userNotFound());
      await commit((tx) => unfriend(tx, deps, userId, friendId));
      return c.json({ message: FRIEND_SERVER_MSG.removed });
    })
    .get('/users/blocks', auth, async (c) => {
      const rows = await userPage(c, (userId, after, limit) =>
        deps.transactor.read((tx) => tx.all(blocksPageSql, userId, after, limit)),
      );
      const list: BlockedUser[] = rows.map((r) => ({ user: toUserRef(r), blockedAt: r.created_at }));
      return c.json(list);
    })
    .post('/users/blocks', auth, async (c) => {
      const userId = c.get('user').id;
      const body = await readBody(c, blockBodySchema);
      await consumeBlockRate(deps, userId);
      await commit((tx) => blockUser(tx, deps, userId, body.userId));
      return c.json({ message: FRIEND_SERVER_MSG.blocked });
    })
    .delete('/users/blocks/:userId', auth, async (c) => {
      const userId = c.get('user').id;
      const blockedId = readId(c, 'userId', userNotFound());
      await consumeBlockRate(deps, userId);
      await commit((tx) => unblockUser(tx, deps, userId, blockedId));
      return c.json({ message: FRIEND_SERVER_MSG.unblocked });
    });
}
