import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { STORAGE_KEYS, type AuthResponse, type User } from '@campus/protocol';
import { isApiError } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { readSession, rememberUser, writeSession } from '../../lib/session-storage';
import { fetchCurrentUser, logoutOnServer } from '../auth/auth-api';
import { stopRunningClients } from '../sync/running-clients';
import { clearLocalData } from './cleanup';
import { SessionContext, type SessionContextValue, type SessionStatus } from './session-context';
import { runSignOutHooks } from './sign-out-hooks';

interface SessionState {
  status: SessionStatus;
  user: User | null;
  endedBy: SessionContextValue['endedBy'];
  /** Signed in from the cached profile because the server could not be asked; checked again later. */
  unverified?: boolean;
}

const LOGOUT_CALL_TIMEOUT_MS = 5000;
/** How often an offline start asks the server again, besides the browser's 'online' event. */
const RECHECK_INTERVAL_MS = 30_000;

function initialState(): SessionState {
  return { status: readSession() ? 'checking' : 'signed-out', user: null, endedBy: null };
}

/** The server could not be asked, as opposed to having said no: keep the session and offer a retry. */
function isTransient(error: unknown): boolean {
  return isApiError(error) && (error.kind === 'network' || error.status >= 500);
}

/** The sync client writes to the user's database until stopped: stop it before the database is deleted. */
async function endLocalSession(userId: string | undefined): Promise<void> {
  runSignOutHooks();
  await stopRunningClients();
  await clearLocalData(userId);
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
        rememberUser(user);
        setState({ status: 'signed-in', user, endedBy: null });
      },
      async (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isTransient(error)) {
          // Offline start: the last known profile opens the app on the local cache.
          const cached = readSession()?.user;
          setState(
            cached
              ? { status: 'signed-in', user: cached, endedBy: null, unverified: true }
              : { status: 'unreachable', user: null, endedBy: null },
          );
          return;
        }
        await endLocalSession(readSession()?.userId);
        setState({ status: 'signed-out', user: null, endedBy: 'expired' });
      },
    );
    return () => controller.abort();
  }, [api, state.status]);

  // After an offline start, the token is checked once the server can be reached again.
  useEffect(() => {
    if (state.status !== 'signed-in' || !state.unverified) return;
    const controller = new AbortController();
    let busy = false;
    const recheck = () => {
      if (busy) return;
      busy = true;
      fetchCurrentUser(api, { signal: controller.signal })
        .then(
          (user) => {
            rememberUser(user);
            setState((current) =>
              current.unverified ? { status: 'signed-in', user, endedBy: null } : current,
            );
          },
          async (error: unknown) => {
            if (controller.signal.aborted || isTransient(error)) return;
            await endLocalSession(readSession()?.userId);
            setState({ status: 'signed-out', user: null, endedBy: 'expired' });
          },
        )
        .finally(() => {
          busy = false;
        });
    };
    window.addEventListener('online', recheck);
    const timer = setInterval(recheck, RECHECK_INTERVAL_MS);
    return () => {
      controller.abort();
      window.removeEventListener('online', recheck);
      clearInterval(timer);
    };
  }, [api, state.status, state.unverified]);

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
    writeSession({ token: auth.token, userId: auth.user.id, user: auth.user });
    setState({ status: 'signed-in', user: auth.user, endedBy: null });
  }, []);

  const updateUser = useCallback((user: User) => {
    rememberUser(user);
    setState((current) => (current.status === 'signed-in' ? { ...current, user } : current));
  }, []);

  const logout = useCallback(async () => {
    // First, while the socket is up: the server's logout closes it (a call in progress is hung up here).
    runSignOutHooks();
    const stored = readSession();
    if (stored) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), LOGOUT_CALL_TIMEOUT_MS);
      // The server side is best effort: the local clean-up below happens whatever it answers.
      await logoutOnServer(api, { signal: controller.signal }).catch(() => undefined);
      clearTimeout(timer);
    }
    await endLocalSession(stored?.userId);
    setState({ status: 'signed-out', user: null, endedBy: 'logout' });
  }, [api]);

  const expire = useCallback(async () => {
    await endLocalSession(readSession()?.userId);
    setState({ status: 'signed-out', user: null, endedBy: 'expired' });
  }, []);

  const retry = useCallback(() => {
    setState((current) =>
      current.status === 'unreachable' ? { status: 'checking', user: null, endedBy: null } : current,
    );
  }, []);

  const value = useMemo<SessionContextValue>(
    () => ({ ...state, signIn, updateUser, logout, expire, retry }),
    [state, signIn, updateUser, logout, expire, retry],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}
