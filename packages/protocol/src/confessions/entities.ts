import { z } from 'zod';
import { CONFESSIONS, REACTION_TYPES } from './constants';
import { CONFESSION_SERVER_MSG } from './messages';
import { collapseSpaces, isSingleScript, stripNameControls } from '../names';

export const reactionTypeSchema = z.enum(REACTION_TYPES);

export const reactionCountsSchema = z.object({
  relatable: z.number().int().min(0),
  funny: z.number().int().min(0),
  feelYou: z.number().int().min(0),
  shareWorthy: z.number().int().min(0),
});
export type ReactionCounts = z.infer<typeof reactionCountsSchema>;

/**
 * A comment as anyone sees it: the author's nickname only. `isMine` lets the author's own UI mark it;
 * no user id ever leaves the server for an anonymous author.
 */
export const confessionCommentSchema = z.object({
  id: z.string(),
  confessionId: z.string(),
  nickname: z.string(),
  content: z.string(),
  createdAt: z.string(),
  isMine: z.boolean(),
});
export type ConfessionComment = z.infer<typeof confessionCommentSchema>;

/**
 * A confession as the feed carries it. Anonymity: no author id; `isMine` says whether the viewer wrote it
 * (the Delete menu), `myReactions` lists only the viewer's own reactions.
 */
export const confessionSchema = z.object({
  id: z.string(),
  content: z.string(),
  emotionTag: z.string(),
  college: z.string().nullable(),
  createdAt: z.string(),
  imageUrl: z.string().nullable(),
  nickname: z.string(),
  reactions: reactionCountsSchema,
  myReactions: z.array(reactionTypeSchema),
  commentCount: z.number().int().min(0),
  /** The newest few comments, oldest first. */
  comments: z.array(confessionCommentSchema),
  isMine: z.boolean(),
});
export type Confession = z.infer<typeof confessionSchema>;

export const NOTIFICATION_TYPES = [
  'confession_reaction',
  'confession_comment',
  'friend_request',
  'document_verified',
  'document_rejected',
  /** A moderator's warning or restriction after a report (issue 13); it never names the reporter. */
  'moderation_notice',
] as const;
export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  type: notificationTypeSchema,
  title: z.string(),
  body: z.string(),
  createdAt: z.string(),
  isRead: z.boolean(),
  /** confessionId for the confession types. */
  data: z.object({ confessionId: z.string().optional() }),
});
export type AppNotification = z.infer<typeof notificationSchema>;

/**
 * Letters (any one script), digits, spaces, dot, dash, underscore; 2–20 characters once direction controls
 * and blank fillers (a Hangul filler is a 'letter') are stripped, runs of spaces made one and the ends trimmed. Mixing scripts is how
 * a look-alike of another name is made ('nіght_owl' with a Cyrillic 'і'), so it is refused.
 */
export const nicknameSchema = z
  .string({ error: CONFESSION_SERVER_MSG.nicknameLength })
  .overwrite((name) => collapseSpaces(stripNameControls(name)))
  .trim()
  .min(CONFESSIONS.nicknameMin, CONFESSION_SERVER_MSG.nicknameLength)
  .max(CONFESSIONS.nicknameMax, CONFESSION_SERVER_MSG.nicknameLength)
  .regex(/^[\p{L}\p{N}._ -]+$/u, CONFESSION_SERVER_MSG.nicknameChars)
  .refine(isSingleScript, CONFESSION_SERVER_MSG.nicknameMixedScript);
