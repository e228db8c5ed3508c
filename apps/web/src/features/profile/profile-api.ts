import {
  PROFILE_MSG,
  collegeOptionSchema,
  userSchema,
  type CollegeOption,
  type User,
} from '@campus/protocol';
import { isApiError, type ApiClient, type ResponseSchema } from '../../lib/api';
import { readSession } from '../../lib/session-storage';

/** No stored login when saving: the spec's 'Token not found. Log in again.', before any request. */
export class MissingTokenError extends Error {
  constructor() {
    super(PROFILE_MSG.tokenMissing);
    this.name = 'MissingTokenError';
  }
}

export function requireToken(): string {
  const token = readSession()?.token;
  if (!token) throw new MissingTokenError();
  return token;
}

/** `PUT /api/users/profile`: the edited profile (profile-body.ts); answers the updated user. */
export function saveProfile(api: ApiClient, body: Record<string, unknown>): Promise<User> {
  return api.put('/api/users/profile', body, userSchema);
}

/** `DELETE /api/users/profile/picture`: back to initials; answers the updated user. */
export function deletePicture(api: ApiClient): Promise<User> {
  return api.delete('/api/users/profile/picture', userSchema);
}

const suggestionSchema: ResponseSchema<CollegeOption | null> = {
  parse(data) {
    const college = (data as { college?: unknown } | null | undefined)?.college;
    return college === null || college === undefined ? null : collegeOptionSchema.parse(college);
  },
};

/**
 * The college of the student's academic sign-up address, or null. A server without the route (404) or any
 * failure means no suggestion: the picker works without one.
 */
export async function fetchCollegeSuggestion(
  api: ApiClient,
  signal?: AbortSignal,
): Promise<CollegeOption | null> {
  try {
    return await api.get('/api/users/profile/college-suggestion', suggestionSchema, { signal });
  } catch {
    return null;
  }
}

/**
 * The spec's profile-save texts (section 8): no stored login; the server's own error; 'Update failed' for
 * a refusal without one; 'An unknown error occurred' for anything else (no connection, a garbled answer).
 */
export function profileFailureText(error: unknown): string {
  if (error instanceof MissingTokenError) return PROFILE_MSG.tokenMissing;
  if (isApiError(error) && error.kind === 'http') return error.serverMessage ?? PROFILE_MSG.updateFailed;
  return PROFILE_MSG.unknownError;
}
