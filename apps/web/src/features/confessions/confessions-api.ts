import {
  CONFESSION_MSG,
  CONFESSIONS,
  commentsPageSchema,
  feedResponseSchema,
  moderateResponseSchema,
  nicknameCheckResponseSchema,
  nicknameResponseSchema,
  type ConfessionComment,
  type FeedResponse,
  type ModerationResult,
  type MessageErrorFrame,
  type RealtimeErrorReason,
} from '@campus/protocol';
import { isApiError, type ApiClient, type ResponseSchema } from '../../lib/api';
import { readSession } from '../../lib/session-storage';

/** Bodies the spec leaves unshown: anything the server answers is accepted. */
const anyBody: ResponseSchema<unknown> = { parse: (data) => data };

/** The post error line (the spec gives no wording of its own for it). */
export const POST_FAILED = 'Failed to post confession';

/** No session token: the spec's 'No auth token', raised before any request is made. */
export class NoAuthTokenError extends Error {
  constructor() {
    super(CONFESSION_MSG.noAuthToken);
    this.name = 'NoAuthTokenError';
  }
}

/**
 * Throws NoAuthTokenError when the session has no token (signed out in another tab, storage cleared). A
 * request without one would only come back as a bare 401; queued writes check it too, before queuing.
 */
export function requireAuthToken(): void {
  if (!readSession()?.token) throw new NoAuthTokenError();
}

export async function fetchFeed(api: ApiClient, page: number, college: string | null): Promise<FeedResponse> {
  requireAuthToken();
  const query = new URLSearchParams({ page: String(page), limit: String(CONFESSIONS.feedPageSize) });
  if (college) query.set('college', college);
  return api.get(`/api/confessions/feed?${query.toString()}`, feedResponseSchema);
}

export async function fetchComments(api: ApiClient, id: string): Promise<ConfessionComment[]> {
  requireAuthToken();
  const page = await api.get(`/api/confessions/${encodeURIComponent(id)}/comments`, commentsPageSchema);
  return page.comments;
}

/** The viewer's nickname, or null when none is set (the server answers 404). */
export async function fetchNickname(api: ApiClient): Promise<string | null> {
  requireAuthToken();
  try {
    return (await api.get('/api/confessions/nickname', nicknameResponseSchema)).nickname;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export async function isNicknameAvailable(api: ApiClient, nickname: string, signal: AbortSignal) {
  requireAuthToken();
  const path = `/api/confessions/nickname/check/${encodeURIComponent(nickname)}`;
  return (await api.get(path, nicknameCheckResponseSchema, { signal })).available;
}

export async function setNickname(api: ApiClient, nickname: string): Promise<void> {
  requireAuthToken();
  await api.post('/api/confessions/nickname/set', { nickname }, anyBody);
}

/** The moderation preview. Any failure counts as clean text, as the spec says. */
export async function moderate(
  api: ApiClient,
  text: string,
  signal?: AbortSignal,
): Promise<ModerationResult> {
  try {
    return await api.post('/moderation/moderate', { text }, moderateResponseSchema, { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { original_text: text, censored_text: text, has_blocked_words: false, blocked_words: [] };
  }
}

/** The red line of a failed post, react or delete: the spec's text, plus the status when there is one. */
export interface ErrorLine {
  message: string;
  status?: number;
}

export function errorLine(error: unknown, fallback: string, useServerText = false): ErrorLine {
  if (error instanceof NoAuthTokenError) return { message: CONFESSION_MSG.noAuthToken };
  if (!isApiError(error)) return { message: fallback };
  const message = useServerText && error.serverMessage ? error.serverMessage : fallback;
  return error.status ? { message, status: error.status } : { message };
}

export function collegeName(college: unknown): string | null {
  if (typeof college === 'string') return college.trim() || null;
  if (typeof college === 'object' && college !== null && 'name' in college) {
    const name = (college as { name: unknown }).name;
    return typeof name === 'string' && name.trim() ? name.trim() : null;
  }
  return null;
}

/**
 * The HTTP status a refusal of a queued write stands for, so its red line reads as the spec's 'error with
 * status' did when the write was a REST call (a refusal carries a reason code, not a status).
 */
const REFUSAL_STATUS: Partial<Record<RealtimeErrorReason, number>> = {
  invalid: 400,
  badFrame: 400,
  notAuthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  rateLimited: 429,
  verificationRequired: 403,
  internal: 500,
};

/** The red line of a refused outbox write: the server's text (or `fallback`) and the status it stands for. */
export function refusalLine(refusal: MessageErrorFrame, fallback: string, useServerText: boolean): ErrorLine {
  // An access-policy refusal always says why (and the line links to the upload page).
  const serverText = useServerText || refusal.code === 'verificationRequired';
  const message = serverText && refusal.error ? refusal.error : fallback;
  const status = REFUSAL_STATUS[refusal.code];
  return status ? { message, status } : { message };
}
