import { z } from 'zod';
import { changeFields, frameId, mutationFields } from '../realtime/frame-parts';
import { CHAT } from './constants';
import { directMessageSchema, groupMessageSchema, groupSchema } from './entities';

/** The chat feature's mutations (client → server, through the outbox) and changes (the change log). */

const content = z.string().max(CHAT.maxMessageLength);
/** One emoji (possibly with modifiers and joiners), or '' to take one's reaction back. */
const emoji = z
  .string()
  .max(32)
  .regex(/^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f)*$/u)
  // Emoji_Component alone admits digits, '#' and '*': a reaction must hold a pictograph or a flag.
  .refine((value) => value === '' || /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(value));

export const sendMessageFrameSchema = z.object({
  type: z.literal('send_message'),
  ...mutationFields,
  /** Client-generated message id (UUID): the optimistic row and the stored row share it. */
  id: z.uuid(),
  to: frameId,
  content,
  replyTo: frameId.nullable().optional(),
});

export const sendGroupMessageFrameSchema = z.object({
  type: z.literal('send_group_message'),
  ...mutationFields,
  id: z.uuid(),
  groupId: frameId,
  content,
});

export const markReadFrameSchema = z.object({
  type: z.literal('mark_messages_as_read'),
  ...mutationFields,
  messageIds: z.array(frameId).min(1).max(CHAT.maxReadBatch),
  chatPartnerId: frameId,
});

export const chatReactionFrameSchema = z.object({
  type: z.literal('chat-reaction'),
  ...mutationFields,
  messageId: frameId,
  emoji,
  toUserId: frameId,
});

export const chatMutationSchemas = [
  sendMessageFrameSchema,
  sendGroupMessageFrameSchema,
  markReadFrameSchema,
  chatReactionFrameSchema,
] as const;

export const receiveMessageChangeSchema = z.object({
  type: z.literal('receive_message'),
  ...changeFields,
  message: directMessageSchema,
});

export const receiveGroupMessageChangeSchema = z.object({
  type: z.literal('receive_group_message'),
  ...changeFields,
  message: groupMessageSchema,
});

/** Delivery and read receipts: `readerId` received (delivered) or read `messageIds` sent to them. */
export const peerReadMessagesChangeSchema = z.object({
  type: z.literal('peer_read_messages'),
  ...changeFields,
  readerId: z.string(),
  messageIds: z.array(z.string()),
  status: z.enum(['delivered', 'read']),
  chatPartnerId: z.string(),
  groupId: z.string().nullable(),
});

/** A reaction set or replaced (`emoji` '' means taken back). One per user per message. */
export const chatReactionChangeSchema = z.object({
  type: z.literal('chat-reaction'),
  ...changeFields,
  messageId: z.string(),
  emoji: z.string(),
  fromUserId: z.string(),
  /** The other participant of the direct chat the message belongs to. */
  toUserId: z.string(),
});

/** The user became a member of a group (on creation): the group with its members. */
export const groupJoinedChangeSchema = z.object({
  type: z.literal('group_joined'),
  ...changeFields,
  group: groupSchema,
});

/**
 * The user read a group up to `readSeq` on one of their devices: their other devices clear its unread count.
 * Sent only when the read mark moves.
 */
export const groupReadChangeSchema = z.object({
  type: z.literal('group_read'),
  ...changeFields,
  groupId: z.string(),
  readSeq: z.number().int(),
});

export const chatChangeSchemas = [
  receiveMessageChangeSchema,
  receiveGroupMessageChangeSchema,
  peerReadMessagesChangeSchema,
  chatReactionChangeSchema,
  groupJoinedChangeSchema,
  groupReadChangeSchema,
] as const;

export type SendMessageFrame = z.infer<typeof sendMessageFrameSchema>;
export type SendGroupMessageFrame = z.infer<typeof sendGroupMessageFrameSchema>;
export type MarkReadFrame = z.infer<typeof markReadFrameSchema>;
export type ChatReactionFrame = z.infer<typeof chatReactionFrameSchema>;
export type ReceiveMessageChange = z.infer<typeof receiveMessageChangeSchema>;
export type ReceiveGroupMessageChange = z.infer<typeof receiveGroupMessageChangeSchema>;
export type PeerReadMessagesChange = z.infer<typeof peerReadMessagesChangeSchema>;
export type ChatReactionChange = z.infer<typeof chatReactionChangeSchema>;
export type GroupJoinedChange = z.infer<typeof groupJoinedChangeSchema>;
export type GroupReadChange = z.infer<typeof groupReadChangeSchema>;
