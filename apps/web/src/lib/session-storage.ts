import { STORAGE_KEYS, userSchema, type User } from '@campus/protocol';

/**
 * What the browser keeps of a sign-in: the token, the user id so that logging out can delete that user's
 * local database even when the token has already expired, and the last known profile so that a start-up
 * without the server (offline, server down) can still open the signed-in app on the local cache.
 */
export interface StoredSession {
  token: string;
  userId?: string;
  user?: User;
}

export function readSession(): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.session);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { token, userId, user } = parsed as { token?: unknown; userId?: unknown; user?: unknown };
    if (typeof token !== 'string' || !token) return null;
    const session: StoredSession = { token };
    if (typeof userId === 'string') session.userId = userId;
    // A cached profile of another account (or an old shape) is ignored rather than trusted.
    const cached = userSchema.safeParse(user);
    if (cached.success && (!session.userId || cached.data.id === session.userId)) session.user = cached.data;
    return session;
  } catch {
    return null;
  }
}

export function writeSession(session: StoredSession): void {
  localStorage.setItem(STORAGE_KEYS.session, JSON.stringify(session));
}

/** Keeps the cached profile current (start-up check, profile edits) without touching the token. */
export function rememberUser(user: User): void {
  const stored = readSession();
  if (!stored) return;
  try {
    writeSession({ token: stored.token, userId: user.id, user });
  } catch {
    // Storage full or unavailable: only the offline start is lost.
  }
}

export function clearSession(): void {
  try {
    localStorage.removeItem(STORAGE_KEYS.session);
  } catch {
    // Storage unavailable: nothing was stored either.
  }
}
