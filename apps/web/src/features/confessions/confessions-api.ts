import {
  CONFESSION_MSG,
  CONFESSIONS,
  commentsPageSchema,
  confessionSchema,
  errorText,
  feedResponseSchema,
  moderateResponseSchema,
  nicknameCheckResponseSchema,
  nicknameResponseSchema,
  reactResponseSchema,
  type Confession,
  type ConfessionComment,
  type FeedResponse,
  type ModerationResult,
  type ReactionType,
} from '@campus/protocol';
import { ApiError, isApiError, type ApiClient, type ResponseSchema } from '../../lib/api';
import { readSession } from '../../lib/session-storage';

/** Bodies the spec leaves unshown: anything the server answers is accepted. */
const anyBody: ResponseSchema<unknown> = { parse: (data) => data };
/** The created confession when the server sends it (the spec does not promise a shape). */
const maybeConfession: ResponseSchema<Confession | null> = {
  parse: (data) => confessionSchema.safeParse(data).data ?? null,
};

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

export async function postConfession(
  api: ApiClient,
  input: { content: string; emotionTag: string; college: string | null },
): Promise<Confession | null> {
  requireAuthToken();
  // A client-made id: a retried post never makes two.
  const body = { id: crypto.randomUUID(), imageUrl: null, ...input };
  return api.post('/api/confessions/post', body, maybeConfession);
}

export async function reactToConfession(api: ApiClient, id: string, reactionType: ReactionType) {
  requireAuthToken();
  return api.post(`/api/confessions/${encodeURIComponent(id)}/react`, { reactionType }, reactResponseSchema);
}

export async function addComment(api: ApiClient, id: string, content: string): Promise<void> {
  requireAuthToken();
  const body = { id: crypto.randomUUID(), content };
  await api.post(`/api/confessions/${encodeURIComponent(id)}/comment`, body, anyBody);
}

export async function fetchComments(api: ApiClient, id: string): Promise<ConfessionComment[]> {
  requireAuthToken();
  const page = await api.get(`/api/confessions/${encodeURIComponent(id)}/comments`, commentsPageSchema);
  return page.comments;
}

/**
 * DELETE is not part of the shared ApiClient (get/post only), so this one call builds its own request with
 * the same base URL, bearer token and ApiError semantics.
 */
export async function deleteConfession(baseUrl: string, id: string): Promise<void> {
  const token = readSession()?.token;
  if (!token) throw new NoAuthTokenError();
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/api/confessions/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      headers,
    });
  } catch {
    throw new ApiError('network', 0, undefined, undefined);
  }
  if (response.ok) return;
  const text = await response.text().catch(() => '');
  let data: unknown;
  try {
    data = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    data = undefined;
  }
  throw new ApiError('http', response.status, errorText(data), data);
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
