import { z } from 'zod';
import { userRefSchema } from '../chat/entities';
import { changeFields, frameId, mutationFields } from '../realtime/frame-parts';
import { friendRequestSchema, friendRequestStatusSchema } from './wire';

/**
 * The friends feature's mutations and changes. Deciding a request and blocking are queued like any write
 * (offline too); sending a request is REST only (it needs the server's answer: sent, already sent, accepted).
 */
export const decideFriendRequestFrameSchema = z.object({
  type: z.literal('decide_friend_request'),
  ...mutationFields,
  requestId: frameId,
  decision: z.enum(['accept', 'reject']),
});
export const blockUserFrameSchema = z.object({
  type: z.literal('block_user'),
  ...mutationFields,
  userId: frameId,
});
export const unblockUserFrameSchema = z.object({
  type: z.literal('unblock_user'),
  ...mutationFields,
  userId: frameId,
});
export const friendMutationSchemas = [
  decideFriendRequestFrameSchema,
  blockUserFrameSchema,
  unblockUserFrameSchema,
] as const;

/** A request for the user (to the recipient's devices). */
export const friendRequestReceivedChangeSchema = z.object({
  type: z.literal('friend_request_received'),
  ...changeFields,
  request: friendRequestSchema,
});
/** A pending request was answered or withdrawn (to both users' devices): it leaves the pending lists. */
export const friendRequestUpdatedChangeSchema = z.object({
  type: z.literal('friend_request_updated'),
  ...changeFields,
  requestId: z.string(),
  status: friendRequestStatusSchema,
});
/** `friend` became (added) or stopped being (removed) the user's friend (to that user's devices). */
export const friendshipChangedChangeSchema = z.object({
  type: z.literal('friendship_changed'),
  ...changeFields,
  friend: userRefSchema,
  added: z.boolean(),
});
/** The user blocked or unblocked someone: to the blocker's own devices only; the other is never told. */
export const blockChangedChangeSchema = z.object({
  type: z.literal('block_changed'),
  ...changeFields,
  user: userRefSchema,
  blocked: z.boolean(),
  at: z.string(),
});
export const friendChangeSchemas = [
  friendRequestReceivedChangeSchema,
  friendRequestUpdatedChangeSchema,
  friendshipChangedChangeSchema,
  blockChangedChangeSchema,
] as const;

export type DecideFriendRequestFrame = z.infer<typeof decideFriendRequestFrameSchema>;
export type BlockUserFrame = z.infer<typeof blockUserFrameSchema>;
export type UnblockUserFrame = z.infer<typeof unblockUserFrameSchema>;
export type FriendRequestReceivedChange = z.infer<typeof friendRequestReceivedChangeSchema>;
export type FriendRequestUpdatedChange = z.infer<typeof friendRequestUpdatedChangeSchema>;
export type FriendshipChangedChange = z.infer<typeof friendshipChangedChangeSchema>;
export type BlockChangedChange = z.infer<typeof blockChangedChangeSchema>;
