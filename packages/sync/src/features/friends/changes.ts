import type { ChangeAppliers } from '../../feature-contract';
import { touch } from './touched';

/**
 * How friends, requests and blocks land in the cache. Each marks the row it touched (touched.ts), so a REST
 * load that was under way keeps what the change made (fetch.ts).
 */
export const friendChanges = {
  friend_request_received: async ({ db }, change) => {
    await db.friendRequests.put(change.request);
    await touch(db, 'friendRequests', change.request.id, change.seq);
  },
  // Answered, withdrawn or accepted by crossing: no longer pending, so it leaves the modal's list.
  friend_request_updated: async ({ db }, change) => {
    if (change.status !== 'pending') await db.friendRequests.delete(change.requestId);
    await touch(db, 'friendRequests', change.requestId, change.seq);
  },
  friendship_changed: async ({ db }, change) => {
    if (change.added) await db.friends.put(change.friend);
    else await db.friends.delete(change.friend.id);
    await touch(db, 'friends', change.friend.id, change.seq);
  },
  block_changed: async ({ db }, change) => {
    if (change.blocked) await db.blocks.put({ ...change.user, blockedAt: change.at });
    else await db.blocks.delete(change.user.id);
    await touch(db, 'blocks', change.user.id, change.seq);
  },
} satisfies Partial<ChangeAppliers>;
