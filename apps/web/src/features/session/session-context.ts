import { createContext, useContext } from 'react';
import type { AuthResponse, User } from '@campus/protocol';

/**
 * checking: a stored token is being checked against the server at start-up.
 * unreachable: that check could not reach the server (offline, server down); the session is kept.
 */
export type SessionStatus = 'checking' | 'signed-out' | 'signed-in' | 'unreachable';

export interface SessionContextValue {
  status: SessionStatus;
  user: User | null;
  /** Why the last session ended: an explicit logout does not remember where the user was. */
  endedBy: 'logout' | 'expired' | null;
  signIn(auth: AuthResponse): void;
  updateUser(user: User): void;
  logout(): Promise<void>;
  /** The server refused the session (e.g. the realtime socket closed with 4401): ends it as expired. */
  expire(): Promise<void>;
  retry(): void;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a <SessionProvider> above it.');
  return session;
}

/** For screens that only render inside the signed-in guard. */
export function useSignedInUser(): User {
  const { user } = useSession();
  if (!user) throw new Error('useSignedInUser is only for signed-in screens.');
  return user;
}
