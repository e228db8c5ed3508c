import { z } from 'zod';
import { CONFESSIONS } from './constants';
import { CONFESSION_SERVER_MSG } from './messages';
import {
  confessionCommentSchema,
  confessionSchema,
  nicknameSchema,
  notificationSchema,
  reactionCountsSchema,
  reactionTypeSchema,
} from './entities';

/** `GET /api/confessions/feed?page&limit=10[&college]`: college narrows to that college ('Your College'). */
export const feedQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(CONFESSIONS.feedPageSize),
  college: z.string().trim().min(1).max(200).optional(),
});
/** The feed page, plus the tab counts the header shows. */
export const feedResponseSchema = z.object({
  confessions: z.array(confessionSchema),
  total: z.number().int().min(0),
  collegeTotal: z.number().int().min(0),
});
export type FeedResponse = z.infer<typeof feedResponseSchema>;

const confessionText = z
  .string({ error: CONFESSION_SERVER_MSG.confessionEmpty })
  .trim()
  .min(1, CONFESSION_SERVER_MSG.confessionEmpty)
  .max(CONFESSIONS.maxConfessionLength, CONFESSION_SERVER_MSG.confessionTooLong);

/** `POST /api/confessions/post`. `id` is client-generated so a retried post never makes two. */
export const postConfessionBodySchema = z.object({
  id: z.uuid().optional(),
  content: confessionText,
  emotionTag: z.string().min(1).max(16),
  imageUrl: z.null().optional(),
  /** Ignored: the server uses the author's profile college. */
  college: z.unknown().optional(),
});

/** `POST /api/confessions/{id}/react`: toggles the viewer's reaction of that type. */
export const reactBodySchema = z.object({ reactionType: reactionTypeSchema });
export const reactResponseSchema = z.object({
  reactions: reactionCountsSchema,
  myReactions: z.array(reactionTypeSchema),
});

/** `POST /api/confessions/{id}/comment`. */
export const commentBodySchema = z.object({
  id: z.uuid().optional(),
  content: z
    .string({ error: CONFESSION_SERVER_MSG.commentEmpty })
    .trim()
    .min(1, CONFESSION_SERVER_MSG.commentEmpty)
    .max(CONFESSIONS.maxCommentLength, CONFESSION_SERVER_MSG.commentTooLong),
});
export const commentsPageSchema = z.object({ comments: z.array(confessionCommentSchema), total: z.number() });

export const nicknameResponseSchema = z.object({ nickname: z.string() });
export const nicknameCheckResponseSchema = z.object({ available: z.boolean() });
export const setNicknameBodySchema = z.object({ nickname: nicknameSchema });

/** `POST /moderation/moderate` (the moderation service, served by our server). */
export const moderateBodySchema = z.object({
  text: z.string({ error: CONFESSION_SERVER_MSG.moderationTextRequired }).max(5000),
});
export const moderateResponseSchema = z.object({
  original_text: z.string(),
  censored_text: z.string(),
  has_blocked_words: z.boolean(),
  blocked_words: z.array(z.string()),
});
export type ModerationResult = z.infer<typeof moderateResponseSchema>;

export const notificationsResponseSchema = z.object({
  notifications: z.array(notificationSchema),
  unreadCount: z.number().int().min(0),
});
export const unreadCountResponseSchema = z.object({ unreadCount: z.number().int().min(0) });

/** `POST /api/users/register-push-token`: a browser PushSubscription as JSON. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url().max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export const vapidPublicKeyResponseSchema = z.object({ publicKey: z.string() });
