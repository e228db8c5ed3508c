import { z } from 'zod';
import { CHAT } from '../chat/constants';
import { CONFESSIONS, REACTION_TYPES } from '../confessions/constants';

/**
 * Frames a client sends on `/ws`. The first frame must be `hello`; every frame is validated against this
 * union on the server, and a frame that fails answers `message_error` and changes nothing.
 */
const id = z.string().min(1).max(64);
const content = z.string().max(CHAT.maxMessageLength);
/** One emoji (possibly with modifiers and joiners), or '' to take one's reaction back. */
const emoji = z
  .string()
  .max(32)
  .regex(/^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f)*$/u)
  // Emoji_Component alone admits digits, '#' and '*': a reaction must hold a pictograph or a flag.
  .refine((value) => value === '' || /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(value));

/**
 * Every write is a mutation: `deviceId` names the device (or tab) that created it and `mid` is that
 * device's increasing mutation id. The server applies a (deviceId, mid) at most once and answers
 * `ack` or `message_error` carrying the same pair.
 */
const mutation = {
  deviceId: z.string().min(8).max(64),
  mid: z.number().int().positive(),
};

export const helloFrameSchema = z.object({
  type: z.literal('hello'),
  v: z.number().int(),
  token: z.string().min(16).max(128),
});

export const pingFrameSchema = z.object({ type: z.literal('ping'), t: z.number() });

/** Asks for the changes after `cursor` (0 on a fresh device: answered with `sync_reset`). */
export const pullFrameSchema = z.object({ type: z.literal('pull'), cursor: z.number().int().min(0) });

export const joinChatFrameSchema = z.object({ type: z.literal('join_chat'), peerId: id });
export const joinGroupFrameSchema = z.object({ type: z.literal('join_group'), groupId: id });

/** Direct typing names the partner as `roomId`; group typing names `groupId`. */
const typingTarget = { roomId: id.optional(), groupId: id.optional() };
export const typingFrameSchema = z
  .object({ type: z.literal('typing'), ...typingTarget })
  .refine((f) => !!f.roomId !== !!f.groupId, 'typing needs roomId or groupId');
export const stopTypingFrameSchema = z
  .object({ type: z.literal('stop_typing'), ...typingTarget })
  .refine((f) => !!f.roomId !== !!f.groupId, 'stop_typing needs roomId or groupId');

export const sendMessageFrameSchema = z.object({
  type: z.literal('send_message'),
  ...mutation,
  /** Client-generated message id (UUID): the optimistic row and the stored row share it. */
  id: z.uuid(),
  to: id,
  content,
  replyTo: id.nullable().optional(),
});

export const sendGroupMessageFrameSchema = z.object({
  type: z.literal('send_group_message'),
  ...mutation,
  id: z.uuid(),
  groupId: id,
  content,
});

export const markReadFrameSchema = z.object({
  type: z.literal('mark_messages_as_read'),
  ...mutation,
  messageIds: z.array(id).min(1).max(CHAT.maxReadBatch),
  chatPartnerId: id,
});

export const chatReactionFrameSchema = z.object({
  type: z.literal('chat-reaction'),
  ...mutation,
  messageId: id,
  emoji,
  toUserId: id,
});

/**
 * Confession writes made through the outbox (so they survive offline). A reaction names the state wanted
 * (`on`), not a toggle, so it means the same however late it arrives.
 */
export const confessionReactFrameSchema = z.object({
  type: z.literal('confession_react'),
  ...mutation,
  confessionId: id,
  reactionType: z.enum(REACTION_TYPES),
  on: z.boolean(),
});
export const confessionCommentFrameSchema = z.object({
  type: z.literal('confession_comment'),
  ...mutation,
  id: z.uuid(),
  confessionId: id,
  content: z.string().max(CONFESSIONS.maxCommentLength),
});
export const confessionPostFrameSchema = z.object({
  type: z.literal('confession_post'),
  ...mutation,
  id: z.uuid(),
  content: z.string().max(CONFESSIONS.maxConfessionLength),
  emotionTag: z.string().min(1).max(16),
});
export const markNotificationReadFrameSchema = z.object({
  type: z.literal('mark_notification_read'),
  ...mutation,
  notificationId: id,
});

export const clientFrameSchema = z.discriminatedUnion('type', [
  helloFrameSchema,
  pingFrameSchema,
  pullFrameSchema,
  joinChatFrameSchema,
  joinGroupFrameSchema,
  typingFrameSchema,
  stopTypingFrameSchema,
  sendMessageFrameSchema,
  sendGroupMessageFrameSchema,
  markReadFrameSchema,
  chatReactionFrameSchema,
  confessionReactFrameSchema,
  confessionCommentFrameSchema,
  confessionPostFrameSchema,
  markNotificationReadFrameSchema,
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

export type HelloFrame = z.infer<typeof helloFrameSchema>;
export type SendMessageFrame = z.infer<typeof sendMessageFrameSchema>;
export type SendGroupMessageFrame = z.infer<typeof sendGroupMessageFrameSchema>;
export type MarkReadFrame = z.infer<typeof markReadFrameSchema>;
export type ChatReactionFrame = z.infer<typeof chatReactionFrameSchema>;
export type ConfessionReactFrame = z.infer<typeof confessionReactFrameSchema>;
export type ConfessionCommentFrame = z.infer<typeof confessionCommentFrameSchema>;
export type ConfessionPostFrame = z.infer<typeof confessionPostFrameSchema>;
export type MarkNotificationReadFrame = z.infer<typeof markNotificationReadFrameSchema>;

/** The frames that are mutations: queued in the outbox while offline and acknowledged one by one. */
export type MutationFrame =
  | SendMessageFrame
  | SendGroupMessageFrame
  | MarkReadFrame
  | ChatReactionFrame
  | ConfessionReactFrame
  | ConfessionCommentFrame
  | ConfessionPostFrame
  | MarkNotificationReadFrame;
export const MUTATION_TYPES = [
  'send_message',
  'send_group_message',
  'mark_messages_as_read',
  'chat-reaction',
  'confession_react',
  'confession_comment',
  'confession_post',
  'mark_notification_read',
] as const satisfies readonly MutationFrame['type'][];

export function isMutationFrame(frame: ClientFrame): frame is MutationFrame {
  return (MUTATION_TYPES as readonly string[]).includes(frame.type);
}

/** A mutation as the outbox holds it before `deviceId` and `mid` are assigned. */
export type MutationInput =
  | Omit<SendMessageFrame, 'deviceId' | 'mid'>
  | Omit<SendGroupMessageFrame, 'deviceId' | 'mid'>
  | Omit<MarkReadFrame, 'deviceId' | 'mid'>
  | Omit<ChatReactionFrame, 'deviceId' | 'mid'>
  | Omit<ConfessionReactFrame, 'deviceId' | 'mid'>
  | Omit<ConfessionCommentFrame, 'deviceId' | 'mid'>
  | Omit<ConfessionPostFrame, 'deviceId' | 'mid'>
  | Omit<MarkNotificationReadFrame, 'deviceId' | 'mid'>;
