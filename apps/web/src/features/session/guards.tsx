import { useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { FullPageLoading, ServerUnreachable } from './FullPageStatus';
import { useSession } from './session-context';

/** Router state carried to /login: where the user was going when the sign-in guard stopped them. */
export interface LoginRedirectState {
  from?: string;
}

/** Only in-app paths, never the auth screens themselves (that would loop) nor protocol-relative URLs. */
export function safeReturnPath(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const from = (state as LoginRedirectState).from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return null;
  if (/^\/(login|signup)(?:[/?#]|$)/.test(from)) return null;
  return from;
}

export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'checking') return <FullPageLoading />;
  if (session.status === 'unreachable') return <ServerUnreachable />;
  if (session.status === 'signed-out') {
    // After an explicit logout there is nothing to come back to; otherwise remember the origin.
    const state: LoginRedirectState | undefined =
      session.endedBy === 'logout' ? undefined : { from: location.pathname + location.search };
    return <Navigate to="/login" replace state={state} />;
  }
  return <Outlet />;
}

export function RequireAdmin() {
  const { user } = useSession();
  return user?.role === 'admin' ? <Outlet /> : <Navigate to="/talk" replace />;
}

/**
 * The auth screens. A user who arrives signed in goes to Talk; a sign-in made on these screens navigates on
 * its own (to the remembered origin, or stays to offer the document upload after a 403).
 */
export function PublicOnly() {
  const { status } = useSession();
  const [arrivedSignedOut] = useState(status === 'signed-out');
  if (status === 'checking') return <FullPageLoading />;
  if (status === 'unreachable') return <ServerUnreachable />;
  if (status === 'signed-in' && !arrivedSignedOut) return <Navigate to="/talk" replace />;
  return <Outlet />;
}
