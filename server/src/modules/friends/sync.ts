import type { AppDeps } from '../../lib/deps';
import type { ChangeHooks, MutationHandlers } from '../../realtime/registry';
import { blockUser, unblockUser } from './blocks';
import { takeBlockRate } from './limits';
import { decideFriendRequest } from './requests';

/**
 * The friends feature's entries in the engine's tables (server/src/features.ts): the writes a device may
 * queue offline. All `open`: answering a request someone sent is like answering a message, and blocking
 * protects the user, which an account waiting for verification must be able to do too. Sending a request
 * is REST only and takes part (routes.ts). Blocks and unblocks charge the per-user budget REST charges
 * (limits.ts) inside the apply, beyond the engine's general one, and over it are refused `rateLimited`.
 */
export function friendMutationHandlers(
  deps: AppDeps,
): Pick<MutationHandlers, 'decide_friend_request' | 'block_user' | 'unblock_user'> {
  return {
    decide_friend_request: {
      access: 'open',
      apply: (tx, frame, actor) =>
        decideFriendRequest(tx, deps, actor.userId, frame.requestId, frame.decision),
    },
    block_user: {
      access: 'open',
      async apply(tx, frame, actor) {
        takeBlockRate(deps, actor.userId);
        await blockUser(tx, deps, actor.userId, frame.userId);
      },
    },
    unblock_user: {
      access: 'open',
      async apply(tx, frame, actor) {
        takeBlockRate(deps, actor.userId);
        await unblockUser(tx, deps, actor.userId, frame.userId);
      },
    },
  };
}

/**
 * Nothing happens on a connection when these arrive: the client applies them. A friendship that ends is no
 * exception: whether the two stay contacts (a chat or a group) needs a read, made in the unfriend's commit,
 * which then tells the hub (live.ts); a new friend is a contact by the session hooks' contactsMadeBy.
 */
export const friendChangeHooks: Pick<
  ChangeHooks,
  'friend_request_received' | 'friend_request_updated' | 'friendship_changed' | 'block_changed'
> = {
  friend_request_received: {},
  friend_request_updated: {},
  friendship_changed: {},
  block_changed: {},
};
