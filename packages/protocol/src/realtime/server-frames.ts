import { z } from 'zod';
import {
  conversationItemSchema,
  directMessageSchema,
  groupMessageSchema,
  groupSchema,
  userListEntrySchema,
} from '../chat/entities';
import { callServerFrameSchemas, type CallServerFrame } from '../calls/frames';
import { randomServerFrameSchemas, type RandomServerFrame } from '../random/frames';
import { changeSchema, changeSchemas, type Change } from './changes';
import { REALTIME_ERROR_REASONS } from './reasons';

/** Answer to `hello`. */
export const welcomeFrameSchema = z.object({
  type: z.literal('welcome'),
  v: z.number().int(),
  userId: z.string(),
  heartbeatMs: z.number().int(),
});

export const pongFrameSchema = z.object({ type: z.literal('pong'), t: z.number() });

/**
 * A page of changes after the pulled cursor; `cursor` is the seq to pull from next.
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
  /** Why, for code to branch on. */
  code: z.enum(REALTIME_ERROR_REASONS),
  /** The text to show. */
  error: z.string(),
  /** What was refused: the frame type, or 'group' for group events (the group view shows only these). */
  context: z.string(),
  deviceId: z.string().optional(),
  mid: z.number().int().optional(),
  /** Set for group events, so the group view can show the ones that concern it. */
  groupId: z.string().optional(),
});

export const peerTypingFrameSchema = z.object({ type: z.literal('peer_typing'), fromUserId: z.string() });
export const peerStopTypingFrameSchema = z.object({
  type: z.literal('peer_stop_typing'),
  fromUserId: z.string(),
});
export const groupTypingFrameSchema = z.object({
  type: z.literal('group_member_typing'),
  fromUserId: z.string(),
  groupId: z.string(),
});
export const groupStopTypingFrameSchema = z.object({
  type: z.literal('group_member_stop_typing'),
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

export const serverFrameSchema = z.discriminatedUnion('type', [
  ...changeSchemas,
  welcomeFrameSchema,
  pongFrameSchema,
  changesFrameSchema,
  syncResetFrameSchema,
  ackFrameSchema,
  messageErrorFrameSchema,
  peerTypingFrameSchema,
  peerStopTypingFrameSchema,
  groupTypingFrameSchema,
  groupStopTypingFrameSchema,
  userOnlineFrameSchema,
  userOfflineFrameSchema,
  onlineUsersListFrameSchema,
  onlineCountFrameSchema,
  ...callServerFrameSchemas,
  ...randomServerFrameSchemas,
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;
export type WelcomeFrame = z.infer<typeof welcomeFrameSchema>;
export type ChangesFrame = z.infer<typeof changesFrameSchema>;
export type SyncResetFrame = z.infer<typeof syncResetFrameSchema>;
export type AckFrame = z.infer<typeof ackFrameSchema>;
export type MessageErrorFrame = z.infer<typeof messageErrorFrameSchema>;
export type EphemeralFrame =
  | z.infer<typeof peerTypingFrameSchema>
  | z.infer<typeof peerStopTypingFrameSchema>
  | z.infer<typeof groupTypingFrameSchema>
  | z.infer<typeof groupStopTypingFrameSchema>
  | z.infer<typeof userOnlineFrameSchema>
  | z.infer<typeof userOfflineFrameSchema>
  | z.infer<typeof onlineUsersListFrameSchema>
  | z.infer<typeof onlineCountFrameSchema>
  /** Call signalling (issue 12): ephemeral too, to users' live connections only. */
  | CallServerFrame
  /** Random and focused talk (issue 13): queues, rooms and relayed text, never stored. */
  | RandomServerFrame;
