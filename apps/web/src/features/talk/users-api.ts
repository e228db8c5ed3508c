import { DIRECTORY_PAGE_MAX, directoryEntrySchema, type DirectoryEntry } from '@campus/protocol';
import { isApiError, type ApiClient, type ResponseSchema } from '../../lib/api';

const directoryPageSchema: ResponseSchema<DirectoryEntry[]> = {
  parse(data) {
    if (!Array.isArray(data)) throw new Error('Expected a list of users.');
    return data.map((entry) => directoryEntrySchema.parse(entry));
  },
};

export interface DirectoryPage {
  users: DirectoryEntry[];
  /** The id to ask the next page after, or null when this page was the last. */
  next: string | null;
}

/**
 * `GET /api/users?q=&after=`: one page of the student directory (names and avatars, never e-mails), narrowed
 * on the server by part of a name or a whole e-mail address; never the caller.
 */
export async function fetchUsers(
  api: ApiClient,
  selfId: string,
  query = '',
  signal?: AbortSignal,
  after: string | null = null,
): Promise<DirectoryPage> {
  const params = new URLSearchParams();
  const q = query.trim();
  if (q) params.set('q', q);
  if (after) params.set('after', after);
  const search = params.toString();
  const page = await api.get(search ? `/api/users?${search}` : '/api/users', directoryPageSchema, { signal });
  // A full page may have more behind it; the server pages by the last id it sent.
  const next = page.length >= DIRECTORY_PAGE_MAX ? (page.at(-1)?.id ?? null) : null;
  return { users: page.filter((user) => user.id !== selfId), next };
}

/**
 * The spec gives each users list two texts: one when the server answered with an error, one when it could
 * not be asked (or answered something unreadable).
 */
export function usersErrorText(error: unknown, httpText: string, otherText: string): string {
  return isApiError(error) && error.kind === 'http' ? httpText : otherText;
}

export function fullName(user: { firstName: string; lastName: string }): string {
  return `${user.firstName} ${user.lastName}`.trim();
}
