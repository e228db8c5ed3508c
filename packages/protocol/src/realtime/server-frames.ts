import { z } from 'zod';
import {
  conversationItemSchema,
  directMessageSchema,
  groupMessageSchema,
  groupSchema,
  userListEntrySchema,
} from '../chat/entities';
import { notificationSchema } from '../confessions/entities';

/**
 * Changes: the persistent events of the server's change log. Each has the log's global `seq`; a client
 * applies them in seq order and keeps the last applied seq as its cursor. Live pushes are exactly these
 * objects sent as frames; a pull answers them in `changes` pages, so catch-up and live share one path.
 * Their names and fields are the spec's realtime events, plus `seq`.
 */
export const receiveMessageChangeSchema = z.object({
  type: z.literal('receive_message'),
  seq: z.number().int(),
  message: directMessageSchema,
});

export const receiveGroupMessageChangeSchema = z.object({
  type: z.literal('receive_group_message'),
  seq: z.number().int(),
  message: groupMessageSchema,
});

/** Delivery and read receipts: `readerId` received (delivered) or read `messageIds` sent to them. */
export const peerReadMessagesChangeSchema = z.object({
  type: z.literal('peer_read_messages'),
  seq: z.number().int(),
  readerId: z.string(),
  messageIds: z.array(z.string()),
  status: z.enum(['delivered', 'read']),
  chatPartnerId: z.string(),
  groupId: z.string().nullable(),
});

/** A reaction set or replaced (`emoji` '' means taken back). One per user per message. */
export const chatReactionChangeSchema = z.object({
  type: z.literal('chat-reaction'),
  seq: z.number().int(),
  messageId: z.string(),
  emoji: z.string(),
  fromUserId: z.string(),
  /** The other participant of the direct chat the message belongs to. */
  toUserId: z.string(),
});

/** The user became a member of a group (on creation): the group with its members. */
export const groupJoinedChangeSchema = z.object({
  type: z.literal('group_joined'),
  seq: z.number().int(),
  group: groupSchema,
});

/** A notification for the user (someone reacted to or commented on their confession, a friend request). */
export const notificationCreatedChangeSchema = z.object({
  type: z.literal('notification_created'),
  seq: z.number().int(),
  notification: notificationSchema,
});
/** The user read a notification (on any of their devices). */
export const notificationReadChangeSchema = z.object({
  type: z.literal('notification_read'),
  seq: z.number().int(),
  notificationId: z.string(),
});

/** Notifications of the user that no longer lead anywhere (their confession was deleted). */
export const notificationsDeletedChangeSchema = z.object({
  type: z.literal('notifications_deleted'),
  seq: z.number().int(),
  notificationIds: z.array(z.string()),
});

/**
 * The user read a group up to `readSeq` on one of their devices: their other devices clear its unread count.
 * Sent only when the read mark moves.
 */
export const groupReadChangeSchema = z.object({
  type: z.literal('group_read'),
  seq: z.number().int(),
  groupId: z.string(),
  readSeq: z.number().int(),
});

export const changeSchema = z.discriminatedUnion('type', [
  receiveMessageChangeSchema,
  receiveGroupMessageChangeSchema,
  peerReadMessagesChangeSchema,
  chatReactionChangeSchema,
  groupJoinedChangeSchema,
  notificationCreatedChangeSchema,
  notificationReadChangeSchema,
  groupReadChangeSchema,
  notificationsDeletedChangeSchema,
]);
export type Change = z.infer<typeof changeSchema>;
export type ReceiveMessageChange = z.infer<typeof receiveMessageChangeSchema>;
export type ReceiveGroupMessageChange = z.infer<typeof receiveGroupMessageChangeSchema>;
export type PeerReadMessagesChange = z.infer<typeof peerReadMessagesChangeSchema>;
export type ChatReactionChange = z.infer<typeof chatReactionChangeSchema>;
export type GroupJoinedChange = z.infer<typeof groupJoinedChangeSchema>;
export type NotificationCreatedChange = z.infer<typeof notificationCreatedChangeSchema>;
export type NotificationReadChange = z.infer<typeof notificationReadChangeSchema>;
export type GroupReadChange = z.infer<typeof groupReadChangeSchema>;
export type NotificationsDeletedChange = z.infer<typeof notificationsDeletedChangeSchema>;

/** Answer to `hello`. */
export const welcomeFrameSchema = z.object({
  type: z.literal('welcome'),
  v: z.number().int(),
  userId: z.string(),
  heartbeatMs: z.number().int(),
});

export const pongFrameSchema = z.object({ type: z.literal('pong'), t: z.number() });

/** A page of changes after the pulled cursor; `cursor` is the seq to pull from next. */
/**
 * A page's changes, each parsed on its own: one of a type this client does not know (a newer server's,
 * additive) is skipped rather than failing the page, which would stall the pull. The page's cursor still
 * moves past it.
 */
const pageChangesSchema = z.array(z.unknown()).transform((items): Change[] =>
  items.flatMap((item) => {
    const parsed = changeSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  }),
);

export const changesFrameSchema = z.object({
  type: z.literal('changes'),
  changes: pageChangesSchema,
  cursor: z.number().int(),
  hasMore: z.boolean(),
});

/**
 * The cursor was 0 or older than the log keeps: the client replaces its synced tables (not its outbox)
 * with this snapshot of recent state and continues from `cursor`. Older history loads through REST.
 */
export const syncResetFrameSchema = z.object({
  type: z.literal('sync_reset'),
  cursor: z.number().int(),
  conversations: z.array(conversationItemSchema),
  groups: z.array(groupSchema),
  messages: z.array(directMessageSchema),
  groupMessages: z.array(groupMessageSchema),
  users: z.array(userListEntrySchema),
});

export const ackFrameSchema = z.object({
  type: z.literal('ack'),
  deviceId: z.string(),
  mid: z.number().int(),
});

/** A refused frame or mutation. For a mutation it carries its (deviceId, mid): the client rolls it back. */
export const messageErrorFrameSchema = z.object({
  type: z.literal('message_error'),
  error: z.string(),
  /** What was refused: the frame type, or 'group' for group events (the group view shows only these). */
  context: z.string(),
  deviceId: z.string().optional(),
  mid: z.number().int().optional(),
  /** Set for group events, so the group view can show the ones that concern it. */
  groupId: z.string().optional(),
});

export const peerTypingFrameSchema = z.object({
  type: z.enum(['peer_typing', 'peer_stop_typing']),
  fromUserId: z.string(),
});
export const groupTypingFrameSchema = z.object({
  type: z.enum(['group_member_typing', 'group_member_stop_typing']),
  fromUserId: z.string(),
  groupId: z.string(),
});
export const userOnlineFrameSchema = z.object({ type: z.literal('user_online'), userId: z.string() });
export const userOfflineFrameSchema = z.object({
  type: z.literal('user_offline'),
  userId: z.string(),
  lastActiveAt: z.string().nullable(),
});
/** The online people among those the user talks with (replaces the client's set). */
export const onlineUsersListFrameSchema = z.object({
  type: z.literal('online_users_list'),
  userIds: z.array(z.string()),
});
/** How many students are online now (Talk home); sent on connect and when it changes, at most every 2 s. */
export const onlineCountFrameSchema = z.object({ type: z.literal('online_count'), count: z.number().int() });

export const serverFrameSchema = z.union([
  changeSchema,
  welcomeFrameSchema,
  pongFrameSchema,
  changesFrameSchema,
  syncResetFrameSchema,
  ackFrameSchema,
  messageErrorFrameSchema,
  peerTypingFrameSchema,
  groupTypingFrameSchema,
  userOnlineFrameSchema,
  userOfflineFrameSchema,
  onlineUsersListFrameSchema,
  onlineCountFrameSchema,
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;
export type WelcomeFrame = z.infer<typeof welcomeFrameSchema>;
export type ChangesFrame = z.infer<typeof changesFrameSchema>;
export type SyncResetFrame = z.infer<typeof syncResetFrameSchema>;
export type AckFrame = z.infer<typeof ackFrameSchema>;
export type MessageErrorFrame = z.infer<typeof messageErrorFrameSchema>;
export type EphemeralFrame =
  | z.infer<typeof peerTypingFrameSchema>
  | z.infer<typeof groupTypingFrameSchema>
  | z.infer<typeof userOnlineFrameSchema>
  | z.infer<typeof userOfflineFrameSchema>
  | z.infer<typeof onlineUsersListFrameSchema>
  | z.infer<typeof onlineCountFrameSchema>;
