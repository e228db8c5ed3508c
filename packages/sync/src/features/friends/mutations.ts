import type { FriendRequest, UserRef } from '@campus/protocol';
import { defineMutation, type MutationClients } from '../../feature-contract';
import type { LocalBlock } from '../../database';

/** The request as it was before this device answered it (it left the list at once). */
export interface DecideUndo {
  request: FriendRequest;
}

/** What blocking removed here (the friend row) and whether the block row was new. */
export interface BlockUndo {
  friend?: UserRef;
  wasBlocked: boolean;
}

export interface UnblockUndo {
  block: LocalBlock;
}

export const decideFriendRequest = defineMutation<'decide_friend_request', DecideUndo>(
  'decide_friend_request',
  {
    // Refused: an accept drops the friend row it showed early. The request comes back only if it is still
    // pending: not when it is gone (notFound: withdrawn) or was answered the other way on another device
    // (conflict: the pull already removed it).
    rollback: async ({ db, undo, frame, code }) => {
      if (!undo) return;
      if (frame.decision === 'accept') await db.friends.delete(undo.request.from.id);
      if (code !== 'notFound' && code !== 'conflict') await db.friendRequests.put(undo.request);
    },
  },
);

export const blockUser = defineMutation<'block_user', BlockUndo>('block_user', {
  rollback: async ({ db, undo, frame }) => {
    if (!undo) return;
    if (!undo.wasBlocked) await db.blocks.delete(frame.userId);
    if (undo.friend) await db.friends.put(undo.friend);
  },
});

export const unblockUser = defineMutation<'unblock_user', UnblockUndo>('unblock_user', {
  rollback: async ({ db, undo }) => {
    if (undo) await db.blocks.put(undo.block);
  },
});

export const friendMutations = {
  decide_friend_request: decideFriendRequest,
  block_user: blockUser,
  unblock_user: unblockUser,
} satisfies Partial<MutationClients>;
