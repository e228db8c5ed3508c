import { STORAGE_KEYS } from '@campus/protocol';

/**
 * What the browser keeps of a sign-in: the token, and the user id so that logging out can delete that user's
 * local database even when the token has already expired.
 */
export interface StoredSession {
  token: string;
  userId?: string;
}

export function readSession(): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.session);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { token, userId } = parsed as { token?: unknown; userId?: unknown };
    if (typeof token !== 'string' || !token) return null;
    return typeof userId === 'string' ? { token, userId } : { token };
  } catch {
    return null;
  }
}

export function writeSession(session: StoredSession): void {
  localStorage.setItem(STORAGE_KEYS.session, JSON.stringify(session));
}

export function clearSession(): void {
  try {
    localStorage.removeItem(STORAGE_KEYS.session);
  } catch {
    // Storage unavailable: nothing was stored either.
  }
}
