import {
  blocksResponseSchema,
  friendRequestsResponseSchema,
  friendsResponseSchema,
  type BlockedUser,
  type Friend,
  type FriendRequest,
} from '@campus/protocol';
import { syncTables } from '../../database';
import type { RestContext } from '../../feature-contract';

async function getJson(ctx: RestContext, path: string): Promise<unknown> {
  const res = await ctx.fetchImpl(`${ctx.baseUrl}${path}`, {
    headers: { Authorization: `Bearer ${ctx.token}` },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

/**
 * Friends, incoming requests and blocks through REST, replacing the cache (after a `sync_reset`, whose
 * snapshot does not carry them, and whenever a screen reloads). What this device changed and has not sent
 * yet wins: a request answered here stays answered, a block or unblock queued here stays.
 */
export async function loadFriendsState(ctx: RestContext): Promise<void> {
  const [friends, requests, blocks] = await Promise.all([
    getJson(ctx, '/api/users/friends').then((b) => friendsResponseSchema.parse(b)),
    getJson(ctx, '/api/users/friends/requests').then((b) => friendRequestsResponseSchema.parse(b)),
    getJson(ctx, '/api/users/blocks').then((b) => blocksResponseSchema.parse(b)),
  ]);
  await storeFriendsState(ctx, friends, requests, blocks);
}

async function storeFriendsState(
  { db }: RestContext,
  friends: readonly Friend[],
  requests: readonly FriendRequest[],
  blocks: readonly BlockedUser[],
): Promise<void> {
  await db.transaction('rw', syncTables(db), async () => {
    const queued = (await db.outbox.toArray()).map((row) => row.frame);
    const decided = new Set(queued.flatMap((f) => (f.type === 'decide_friend_request' ? [f.requestId] : [])));
    const blocking = new Set(queued.flatMap((f) => (f.type === 'block_user' ? [f.userId] : [])));
    const unblocking = new Set(queued.flatMap((f) => (f.type === 'unblock_user' ? [f.userId] : [])));
    const keptBlocks = (await db.blocks.toArray()).filter((b) => blocking.has(b.id));
    await Promise.all([db.friends.clear(), db.friendRequests.clear(), db.blocks.clear()]);
    await db.friends.bulkPut(
      friends
        .filter((f) => !blocking.has(f.id))
        .map((f) => ({
          id: f.id,
          firstName: f.firstName,
          lastName: f.lastName,
          profilePictureUrl: f.profilePictureUrl,
        })),
    );
    await db.friendRequests.bulkPut(requests.filter((r) => !decided.has(r.id)));
    await db.blocks.bulkPut([
      ...blocks.filter((b) => !unblocking.has(b.user.id)).map((b) => ({ ...b.user, blockedAt: b.blockedAt })),
      ...keptBlocks,
    ]);
  });
}
