import { z } from 'zod';

/** The few user fields a message or a member list carries; the full profile comes from /api/users/{id}. */
export const userRefSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  profilePictureUrl: z.string().nullable(),
});
export type UserRef = z.infer<typeof userRefSchema>;

/** The spec's fallback when a message names a user we cannot resolve. */
export const UNKNOWN_USER: UserRef = {
  id: 'unknown_user',
  firstName: '',
  lastName: '',
  profilePictureUrl: null,
};

/**
 * An entry of the student directory (`GET /api/users`): who they are and their avatar, nothing more.
 * Never an e-mail address: the directory is open to every student, and would list them all.
 */
export const directoryEntrySchema = userRefSchema;
export type DirectoryEntry = z.infer<typeof directoryEntrySchema>;

/**
 * A user the sync snapshot carries: someone the caller shares a chat or group with. No e-mail (a departure
 * from the spec's user list entry): anyone can open a chat with or add to a group any student the directory
 * shows, so an address here would hand out every address the directory keeps back.
 */
export const userListEntrySchema = userRefSchema.extend({
  lastActiveAt: z.string().nullable(),
});
export type UserListEntry = z.infer<typeof userListEntrySchema>;

/**
 * 'sending' exists only on the device that wrote the message (optimistic, in the outbox);
 * the server stores sent, delivered and read.
 */
export const MESSAGE_STATUSES = ['sending', 'sent', 'delivered', 'read', 'failed'] as const;
export const messageStatusSchema = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof messageStatusSchema>;

export const attachmentTypeSchema = z.enum(['image', 'file']);
export type AttachmentType = z.infer<typeof attachmentTypeSchema>;

export const reactionSchema = z.object({ emoji: z.string(), userId: z.string() });
export type Reaction = z.infer<typeof reactionSchema>;

/** A one-to-one message as every API and realtime frame carries it. Times are ISO strings. */
export const directMessageSchema = z.object({
  id: z.string(),
  from: userRefSchema,
  to: userRefSchema,
  content: z.string(),
  timestamp: z.string(),
  status: messageStatusSchema,
  attachmentUrl: z.string().nullable(),
  attachmentType: attachmentTypeSchema.nullable(),
  replyTo: z.string().nullable(),
  reactions: z.array(reactionSchema),
  /** The change-log seq that stored it: the order of the conversation. Absent while only local. */
  seq: z.number().int().optional(),
});
export type DirectMessage = z.infer<typeof directMessageSchema>;

export const groupMessageSchema = z.object({
  id: z.string(),
  from: userRefSchema,
  group: z.string(),
  content: z.string(),
  timestamp: z.string(),
  attachmentUrl: z.string().nullable(),
  attachmentType: attachmentTypeSchema.nullable(),
  seq: z.number().int().optional(),
  /** 'sending' and 'failed' exist only on the writer's device; stored group messages are 'sent'. */
  status: messageStatusSchema.optional(),
});
export type GroupMessage = z.infer<typeof groupMessageSchema>;

export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  members: z.array(userRefSchema),
  avatarUrl: z.string().nullable(),
});
export type Group = z.infer<typeof groupSchema>;

/** A row of the Talk home's recent conversations: a partner (isGroup false, id = partner id) or a group. */
export const conversationItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  avatarUrl: z.string().nullable(),
  lastMessageSnippet: z.string(),
  lastMessageTimestamp: z.string().nullable(),
  unreadCount: z.number().int().min(0),
  isGroup: z.boolean(),
  /** Always null: kept for the spec's shape, never a partner's address (see userListEntrySchema). */
  email: z.null(),
  lastActiveAt: z.string().nullable(),
});
export type ConversationItem = z.infer<typeof conversationItemSchema>;
