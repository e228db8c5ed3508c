import { z } from 'zod';
import { userRefSchema } from '../chat/entities';
import { frameId } from '../realtime/frame-parts';

/**
 * Friends, friend requests and blocks over REST (issue 12; spec 001 section 7 and spec 000 section 7).
 * `from` of a request is the sender's public card: the spec shows an e-mail there, but this product never
 * hands a student's e-mail to another student (the directory hides it too), so it is left out.
 */
export const FRIEND_REQUEST_STATUSES = ['pending', 'accepted', 'rejected', 'cancelled'] as const;
export const friendRequestStatusSchema = z.enum(FRIEND_REQUEST_STATUSES);
export type FriendRequestStatus = z.infer<typeof friendRequestStatusSchema>;

export const friendRequestSchema = z.object({
  /** The spec's `_id`; `id` carries the same value for this product's own code. */
  _id: z.string(),
  id: z.string(),
  status: friendRequestStatusSchema,
  from: userRefSchema,
  createdAt: z.string(),
});
export type FriendRequest = z.infer<typeof friendRequestSchema>;

/** The spec's Friend record: `online` is the server's view at the time of the answer; presence updates it. */
export const friendSchema = userRefSchema.extend({ online: z.boolean() });
export type Friend = z.infer<typeof friendSchema>;

export const blockedUserSchema = z.object({ user: userRefSchema, blockedAt: z.string() });
export type BlockedUser = z.infer<typeof blockedUserSchema>;

/** `POST /api/users/friends/requests`. */
export const sendFriendRequestBodySchema = z.object({ to: frameId });
/** What a send ended as: a new request, one already pending, or theirs accepted (they had asked first). */
export const sendFriendRequestResponseSchema = z.object({
  message: z.string(),
  outcome: z.enum(['sent', 'alreadySent', 'accepted']),
});
export type SendFriendRequestResponse = z.infer<typeof sendFriendRequestResponseSchema>;

export const friendRequestsResponseSchema = z.array(friendRequestSchema);
/** One page of `GET /api/users/friends` (see friendsPageQuerySchema). */
export const friendsResponseSchema = z.array(friendSchema);
/** One page of `GET /api/users/blocks` (see friendsPageQuerySchema). */
export const blocksResponseSchema = z.array(blockedUserSchema);

/** The most friends or blocks one page holds; a larger `limit` is lowered to it. */
export const FRIENDS_PAGE_MAX = 200;

/**
 * `?after=&limit=` of `GET /api/users/friends` and `GET /api/users/blocks`: keyset pages in user-id order
 * (screens sort by name themselves). `after` is the id of the last user of the previous page; without it,
 * the first page, so a client that passes nothing still gets the spec's array. The body is always an
 * array; when more follow, the answer carries `Link: <path?after=…&limit=…>; rel="next"` (friendsNextLink),
 * and the last page none.
 */
export const friendsPageQuerySchema = z.object({
  after: frameId.optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(FRIENDS_PAGE_MAX)
    .transform((limit) => Math.min(limit, FRIENDS_PAGE_MAX)),
});
export type FriendsPageQuery = z.infer<typeof friendsPageQuerySchema>;

/** The `Link` header of a page that has a next one: the same path, after its last user. */
export function friendsNextLink(path: string, after: string, limit: number): string {
  const query = new URLSearchParams({ after, limit: String(limit) });
  return `<${path}?${query.toString()}>; rel="next"`;
}

/** The path and query of the next page from a `Link` header (friendsNextLink), or undefined on the last. */
export function friendsNextPath(link: string | null): string | undefined {
  return link ? /<([^>]*)>\s*;\s*rel="next"/.exec(link)?.[1] : undefined;
}

/** `POST /api/users/blocks`. */
export const blockBodySchema = z.object({ userId: frameId });

export const FRIEND_MSG = {
  /** The spec's texts (section 8). */
  sent: 'Friend request sent!',
  sendFailed: 'Failed to send friend request',
  sendError: 'Error sending friend request',
  fetchFriendsFailed: 'Failed to fetch friends.',
  fetchRequestsFailed: 'Failed to fetch friend requests',
  updateFailed: 'Failed to update request',
} as const;

export const FRIEND_SERVER_MSG = {
  toSelf: 'You cannot send a friend request to yourself.',
  userNotFound: 'User not found.',
  alreadyFriends: 'You are already friends.',
  alreadySent: 'Friend request already sent.',
  acceptedTheirs: 'Friend request accepted.',
  requestNotFound: 'Friend request not found.',
  requestDecided: 'This friend request was already answered.',
  accepted: 'Friend request accepted.',
  rejected: 'Friend request rejected.',
  removed: 'Friend removed.',
  notFriends: 'You are not friends.',
  blockSelf: 'You cannot block yourself.',
  blocked: 'User blocked.',
  unblocked: 'User unblocked.',
  tooMany: 'Too many friend requests. Try again later.',
} as const;
