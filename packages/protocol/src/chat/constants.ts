/** Chat constants of the talk spec (section 9) and the limits the spec leaves to us. */
export const CHAT = {
  pageSize: 30,
  typingStopMs: 2000,
  refreshAfterSendMs: 1000,
  nearBottomPx: 100,
  activeNowMs: 120_000,
  snippetLength: 30,
  replyPreviewLength: 40,
  composerMaxHeightDirect: 88,
  composerMaxHeightGroup: 112,
  /** Our limits, enforced by the server and shown in the UI. */
  maxMessageLength: 4000,
  maxGroupNameLength: 60,
  maxGroupMembers: 100,
  maxAttachmentBytes: 10 * 1024 * 1024,
  maxAttachmentLabel: '10 MB',
  /** How many messages one `mark_messages_as_read` may name. */
  maxReadBatch: 500,
} as const;

/** The quick reactions row, in the spec's order: thumbs up, laugh, heart eyes, surprised, sad, fire. */
export const QUICK_REACTIONS = ['👍', '😂', '😍', '😮', '😢', '🔥'] as const;

/** The emoji picker's categories, in the spec's order. */
export const EMOJI_CATEGORIES = [
  'Smileys & People',
  'Animals & Nature',
  'Food & Drink',
  'Activities',
  'Objects',
  'Symbols',
] as const;
