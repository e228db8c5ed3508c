import { userListEntrySchema, type UserListEntry } from '@campus/protocol';
import { isApiError, type ApiClient, type ResponseSchema } from '../../lib/api';

const userListSchema: ResponseSchema<UserListEntry[]> = {
  parse(data) {
    if (!Array.isArray(data)) throw new Error('Expected a list of users.');
    return data.map((entry) => userListEntrySchema.parse(entry));
  },
};

/** `GET /api/users?q=`: the student directory, narrowed on the server by name or e-mail; never the caller. */
export async function fetchUsers(
  api: ApiClient,
  selfId: string,
  query = '',
  signal?: AbortSignal,
): Promise<UserListEntry[]> {
  const q = query.trim();
  const path = q ? `/api/users?q=${encodeURIComponent(q)}` : '/api/users';
  const users = await api.get(path, userListSchema, { signal });
  return users.filter((user) => user.id !== selfId);
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
