import type { ChangeAppliers } from '../../feature-contract';

/** How friends, requests and blocks land in the cache. */
export const friendChanges = {
  friend_request_received: async ({ db }, change) => {
    await db.friendRequests.put(change.request);
  },
  // Answered, withdrawn or accepted by crossing: no longer pending, so it leaves the modal's list.
  friend_request_updated: async ({ db }, change) => {
    if (change.status !== 'pending') await db.friendRequests.delete(change.requestId);
  },
  friendship_changed: async ({ db }, change) => {
    if (change.added) await db.friends.put(change.friend);
    else await db.friends.delete(change.friend.id);
  },
  block_changed: async ({ db }, change) => {
    if (change.blocked) await db.blocks.put({ ...change.user, blockedAt: change.at });
    else await db.blocks.delete(change.user.id);
  },
} satisfies Partial<ChangeAppliers>;
