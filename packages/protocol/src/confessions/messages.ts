import { CONFESSIONS } from './constants';

/** The confessions and notifications error catalogue of the accounts spec (section 8), word for word. */
export const CONFESSION_MSG = {
  reactionFailed: 'Failed to update reaction',
  deleteFailed: 'Failed to delete confession',
  nicknameFailed: 'Failed to set nickname',
  commentFailed: 'Failed to add comment',
  noAuthToken: 'No auth token',
  notificationsFailed: 'Failed to load notifications',

  emptyTitle: 'No confessions yet',
  emptyBody: 'Be the first to share something!',
  end: "You've reached the end",
  postButton: 'Post Confession',
  nicknameBanner: 'Choose a nickname to post, react and comment.',
  nicknameChecking: 'checking…',
  nicknameAvailable: 'available',
  nicknameTaken: 'taken',
  deleteConfirm: 'Are you sure you want to delete this confession? This action cannot be undone.',

  notificationsSearch: 'Search notifications...',
  notificationsEmptyTitle: 'You’re all caught up',
  notificationsEmptyBody: 'No notifications.',
} as const;

/** 'Feed error {status}'. */
export function feedError(status: number | string): string {
  return `Feed error ${status}`;
}

/** The censor confirmation of spec section 5. */
export function censorConfirm(censored: string): string {
  return `Your confession contains words that will be censored. Will be posted as: ${censored} Continue?`;
}

/** The server's answers for confession, nickname and notification routes. */
export const CONFESSION_SERVER_MSG = {
  nicknameRequired: 'Set a nickname first.',
  nicknameLength: `Nickname must be ${CONFESSIONS.nicknameMin} to ${CONFESSIONS.nicknameMax} characters.`,
  nicknameChars: 'Nickname can use letters, numbers, spaces, dots, dashes and underscores.',
  nicknameMixedScript: 'Nickname cannot mix letters from different alphabets.',
  nicknameTaken: 'That nickname is taken.',
  nicknameNotSet: 'No nickname set.',
  confessionEmpty: 'Confession cannot be empty.',
  confessionTooLong: `Confession must be at most ${CONFESSIONS.maxConfessionLength} characters.`,
  commentEmpty: 'Comment cannot be empty.',
  commentTooLong: `Comment must be at most ${CONFESSIONS.maxCommentLength} characters.`,
  confessionNotFound: 'Confession not found.',
  notAuthor: 'Only the author can delete this confession.',
  notificationNotFound: 'Notification not found.',
  moderationTextRequired: 'Text is required.',
} as const;
