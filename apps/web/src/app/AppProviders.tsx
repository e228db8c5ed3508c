import { useMemo, type ReactNode } from 'react';
import type { Platform } from '@campus/protocol';
import { SessionProvider } from '../features/session/SessionProvider';
import { ThemeProvider } from '../features/theme/ThemeProvider';
import { createApiClient, type ApiClient } from '../lib/api';
import { ApiProvider } from '../lib/ApiContext';
import { readSession } from '../lib/session-storage';
import { PlatformProvider } from '../platform';

/** Everything the screens reach through context. The router is left to the caller (browser or memory). */
export function AppProviders({ platform, children }: { platform: Platform; children: ReactNode }) {
  const api = useMemo<ApiClient>(
    () => createApiClient({ baseUrl: platform.serverUrl, getToken: () => readSession()?.token ?? null }),
    [platform],
  );
  return (
    <PlatformProvider platform={platform}>
      <ApiProvider api={api}>
        <ThemeProvider>
          <SessionProvider>{children}</SessionProvider>
        </ThemeProvider>
      </ApiProvider>
    </PlatformProvider>
  );
}
