/** Business constants of the specification, shared by the UI and the server. */

/**
 * The realtime protocol's version. Raise it when an older client would misread what the server now sends:
 * 2 added the `group_read` and `notifications_deleted` changes, which a version-1 client's schema rejects
 * (it would drop whole pull pages and never catch up). A refused client offers a reload. Since then a
 * client skips a change type it does not know (`changes` pages parse each change on its own), so a new
 * change kind (`confession_*`, `user_updated`) needs no new version.
 */
export const PROTOCOL_VERSION = 2;

export const OTP_LENGTH = 6;
export const MIN_PASSWORD_LENGTH = 6;
/** Passwords longer than this are refused so hashing cost stays bounded. */
export const MAX_PASSWORD_LENGTH = 256;
export const MAX_NAME_LENGTH = 60;
export const MAX_EMAIL_LENGTH = 254;

/** One-time codes: lifetime, wrong tries allowed, and the pause before another may be sent. */
export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_COOLDOWN_MS = 60 * 1000;

/** Sessions last 30 days and slide forward when used in their second half. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_REFRESH_MS = 15 * 24 * 60 * 60 * 1000;

export const RESET_REDIRECT_MS = 2000;
export const UPLOAD_REDIRECT_MS = 2000;
export const BADGE_MAX = 99;

/** localStorage keys: the session (holding the token) and the theme. */
export const STORAGE_KEYS = {
  session: 'campus-talk.session',
  theme: 'campus-talk.theme',
} as const;

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** The realtime connection defaults of the spec. */
export const REALTIME = {
  connectTimeoutMs: 20_000,
  reconnectDelayMinMs: 1_000,
  reconnectDelayMaxMs: 5_000,
} as const;
