import { ACCESS_MSG } from '../verification/messages';
/** The chat error catalogue of the talk spec (section 8), word for word, plus the server's own answers. */
export const CHAT_MSG = {
  noToken: 'Authentication token not found. Please log in.',
  noTokenShort: 'Authentication token not found.',
  authRequired: 'Authentication required.',
  authFailed: 'Authentication failed.',
  authRequiredAttachment: 'Authentication required to send attachment.',

  conversationsFailedData: 'Failed to load conversations data.',
  usersForChatFailed: 'Failed to fetch users for new chat.',
  usersListFailed: 'Could not load users list.',
  usersFetchFailed: 'Failed to fetch users',
  usersLoadFailed: 'Could not load users.',

  initialMessagesFailed: 'Failed to fetch initial messages.',
  historyError: 'Error loading chat history.',
  olderMessagesFailed: 'Failed to fetch older messages.',
  olderMessagesError: 'Error loading older messages.',

  groupCreateFailed: 'Failed to create group',
  groupCreateError: 'Could not create group.',
  groupInfoMissing: 'Group information is missing.',
  attachmentUploadFailed: 'Failed to upload attachment.',
  attachmentUploadError: 'Attachment upload failed.',
  groupHistoryError: 'Error fetching group chat history.',
  socketNotConnected: 'Socket not connected. Real-time messaging disabled.',

  notConnectedBanner: 'Not connected. Messages may not send or receive.',
  invalidTime: 'Invalid time',
  invalidDate: 'Invalid date',

  groupNameRequired: 'Group name is required.',
  groupMembersRequired: 'Please select at least one member for the group.',
  noUsersFound: 'No users found.',
} as const;

/** 'Failed to fetch conversations: <status text>'. */
export function conversationsFetchFailed(statusText: string): string {
  return `Failed to fetch conversations: ${statusText}`;
}

/** Enumerated reasons a realtime frame or mutation is refused; `message_error.error` carries the text. */
export const REALTIME_ERRORS = {
  badFrame: 'Invalid message format.',
  unknownType: 'Unknown message type.',
  notAuthenticated: 'Authentication required.',
  protocolVersion: 'This app is out of date. Please reload to update.',
  notGroupMember: 'You are not a member of this group.',
  unknownUser: 'That user does not exist.',
  selfMessage: 'You cannot message yourself.',
  unknownMessage: 'That message does not exist.',
  emptyMessage: 'Message cannot be empty.',
  messageTooLong: 'Message is too long.',
  rateLimited: 'You are sending messages too fast. Please slow down.',
  internal: 'Something went wrong. Please try again.',
  // Direct-message limits against spamming strangers: the unanswered cap names the person (awaitingReplyError).
  awaitingReply: "You can't send more messages until they reply.",
  tooManyConversations: "You're starting too many conversations. Try again later.",
  // A block either way (issue 12); the same words both ways, so the blocked user is not told.
  cannotMessage: "You can't message this user.",
  // General reasons; features usually send their own, more specific text with them.
  notFound: 'Not found.',
  forbidden: 'You are not allowed to do that.',
  conflict: 'This id is already in use.',
  invalid: 'That request is not valid.',
  // The access policy (issue 11): an account that is not verified yet tried to take part.
  verificationRequired: ACCESS_MSG.verificationRequired,
} as const;

/** 'You can't send more messages until <name> replies.'; a nameless account falls back to 'they'. */
export function awaitingReplyError(firstName: string): string {
  const name = firstName.trim();
  return name ? `You can't send more messages until ${name} replies.` : REALTIME_ERRORS.awaitingReply;
}

/** Server answers for group, directory and attachment routes. */
export const CHAT_SERVER_MSG = {
  groupNotFound: 'Group not found.',
  userNotFound: 'User not found.',
  memberUnknown: 'One or more selected members do not exist.',
  groupNameTooLong: 'Group name must be at most 60 characters.',
  tooManyMembers: 'A group can have at most 100 members.',
  tooManyNewMembers: "You're adding too many new people to groups. Try again later.",
  /** A block either way between the creator and a member; the same words whichever side blocked. */
  memberBlocked: "You can't add this user to a group.",
  attachmentMissing: 'Choose a file to attach.',
  attachmentTooLarge: 'Attachments can be at most 10 MB.',
  attachmentType: 'This file type is not supported.',
  attachmentNameRequired: 'File name is required.',
  attachmentNameType: 'Files named .html, .htm, .js or .svg cannot be attached.',
  linkExpired: 'This link has expired.',
} as const;
