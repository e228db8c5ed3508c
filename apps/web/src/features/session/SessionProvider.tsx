import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { STORAGE_KEYS, type AuthResponse, type User } from '@campus/protocol';
import { isApiError } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { readSession, writeSession } from '../../lib/session-storage';
import { fetchCurrentUser, logoutOnServer } from '../auth/auth-api';
import { clearLocalData } from './cleanup';
import { SessionContext, type SessionContextValue, type SessionStatus } from './session-context';

interface SessionState {
  status: SessionStatus;
  user: User | null;
  endedBy: SessionContextValue['endedBy'];
}

const LOGOUT_CALL_TIMEOUT_MS = 5000;

function initialState(): SessionState {
  return { status: readSession() ? 'checking' : 'signed-out', user: null, endedBy: null };
}

/** The server could not be asked, as opposed to having said no: keep the session and offer a retry. */
function isTransient(error: unknown): boolean {
  return isApiError(error) && (error.kind === 'network' || error.status >= 500);
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const [state, setState] = useState<SessionState>(initialState);

  // Start-up: a stored token is checked with the current-user call; a refused token logs out.
  useEffect(() => {
    if (state.status !== 'checking') return;
    const controller = new AbortController();
    fetchCurrentUser(api, { signal: controller.signal }).then(
      (user) => {
        const stored = readSession();
        if (stored && stored.userId !== user.id) writeSession({ token: stored.token, userId: user.id });
        setState({ status: 'signed-in', user, endedBy: null });
      },
      async (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isTransient(error)) {
          setState({ status: 'unreachable', user: null, endedBy: null });
          return;
        }
        await clearLocalData(readSession()?.userId);
        setState({ status: 'signed-out', user: null, endedBy: 'expired' });
      },
    );
    return () => controller.abort();
  }, [api, state.status]);

  // Another tab signing in or out changes this one too.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== STORAGE_KEYS.session && event.key !== null) return;
      const stored = readSession();
      setState((current) => {
        if (!stored && current.status !== 'signed-out')
          return { status: 'signed-out', user: null, endedBy: 'logout' };
        if (stored && current.status === 'signed-out')
          return { status: 'checking', user: null, endedBy: null };
        return current;
      });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const signIn = useCallback((auth: AuthResponse) => {
    writeSession({ token: auth.token, userId: auth.user.id });
    setState({ status: 'signed-in', user: auth.user, endedBy: null });
  }, []);

  const updateUser = useCallback((user: User) => {
    setState((current) => (current.status === 'signed-in' ? { ...current, user } : current));
  }, []);

  const logout = useCallback(async () => {
    const stored = readSession();
    if (stored) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), LOGOUT_CALL_TIMEOUT_MS);
      // The server side is best effort: the local clean-up below happens whatever it answers.
      await logoutOnServer(api, { signal: controller.signal }).catch(() => undefined);
      clearTimeout(timer);
    }
    await clearLocalData(stored?.userId);
    setState({ status: 'signed-out', user: null, endedBy: 'logout' });
  }, [api]);

  const retry = useCallback(() => {
    setState((current) =>
      current.status === 'unreachable' ? { status: 'checking', user: null, endedBy: null } : current,
    );
  }, []);

  const value = useMemo<SessionContextValue>(
    () => ({ ...state, signIn, updateUser, logout, retry }),
    [state, signIn, updateUser, logout, retry],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}
