import type { UserRef } from '@campus/protocol';
import { syncTables } from '../../database';
import type { Writer } from '../../writer';
import { blockUser, decideFriendRequest, unblockUser } from './mutations';

/**
 * Accepts or rejects a friend request here at once (it leaves the list; an accept shows the friend) and
 * queues the answer, so it works offline like any write.
 */
export async function writeDecideFriendRequest(
  w: Writer,
  requestId: string,
  decision: 'accept' | 'reject',
): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const request = await w.db.friendRequests.get(requestId);
    if (request) {
      await w.db.friendRequests.delete(requestId);
      if (decision === 'accept') await w.db.friends.put(request.from);
    }
    const input = { type: 'decide_friend_request' as const, requestId, decision };
    await decideFriendRequest.enqueue(w, input, request ? { request } : undefined);
  });
}

/** Blocks `user` here at once (listed in blocks, gone from friends) and queues the block. */
export async function writeBlockUser(w: Writer, user: UserRef): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const wasBlocked = (await w.db.blocks.get(user.id)) !== undefined;
    const friend = await w.db.friends.get(user.id);
    await w.db.blocks.put({ ...user, blockedAt: new Date().toISOString() });
    if (friend) await w.db.friends.delete(user.id);
    await blockUser.enqueue(
      w,
      { type: 'block_user', userId: user.id },
      friend ? { friend, wasBlocked } : { wasBlocked },
    );
  });
}

/** Lifts a block here at once and queues it. */
export async function writeUnblockUser(w: Writer, userId: string): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const block = await w.db.blocks.get(userId);
    if (block) await w.db.blocks.delete(userId);
    await unblockUser.enqueue(w, { type: 'unblock_user', userId }, block ? { block } : undefined);
  });
}
