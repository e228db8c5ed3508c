import { useState, type ReactNode } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { STORAGE_KEYS, type Platform, type User } from '@campus/protocol';
import { AdminDocumentsPage } from '../src/features/admin/AdminDocumentsPage';
import { SessionContext, type SessionContextValue } from '../src/features/session/session-context';
import { UploadDocumentPage } from '../src/features/upload/UploadDocumentPage';
import { createApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';
import { readSession } from '../src/lib/session-storage';
import { PlatformProvider } from '../src/platform';
import { fakePlatform, student } from './helpers';

/** A student who has not uploaded yet (limited access). */
export const newcomer: User = {
  ...student,
  id: 'u-nia',
  firstName: 'Nia',
  lastName: 'Putri',
  documentStatus: 'pending_submission',
  access: 'limited',
};

/** A file of `size` bytes of the given type. */
export function fileOf(name: string, type: string, size: number): File {
  return new File([new Uint8Array(size)], name, { type });
}

/**
 * jsdom has no object URLs; the preview only needs one to exist. Returns the created URLs' count.
 */
export function stubObjectUrls() {
  const created = vi.fn(() => 'blob:preview');
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: created });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
  return created;
}

/** XMLHttpRequest as the test drives it: what was sent, then progress, an answer or a network failure. */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  respond(status: number, responseText = '') {
    this.status = status;
    this.responseText = responseText;
    this.onload?.();
  }
  fail() {
    this.onerror?.();
  }
}

export function installFakeXhr(): typeof FakeXhr {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr;
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/** The signed-in session as the pages see it; updateUser changes it as the real provider does. */
function Session({ initial, children }: { initial: User; children: ReactNode }) {
  const [user, setUser] = useState(initial);
  const value: SessionContextValue = {
    status: 'signed-in',
    user,
    endedBy: null,
    signIn: () => undefined,
    updateUser: setUser,
    logout: async () => undefined,
    expire: async () => undefined,
    retry: () => undefined,
  };
  return (
    <SessionContext value={value}>
      {children}
      <div data-testid="session-status">{user.documentStatus}</div>
    </SessionContext>
  );
}

/**
 * The upload and admin pages alone (no shell, no sync: they use neither), signed in as `user` with a token
 * in storage, on a fake platform the test may adjust.
 */
export function renderPage(path: string, user: User, platform: Partial<Platform> = {}) {
  localStorage.setItem(STORAGE_KEYS.session, JSON.stringify({ token: `token-${user.id}`, userId: user.id }));
  const api = createApiClient({ baseUrl: '', getToken: () => readSession()?.token ?? null });
  render(
    <MemoryRouter initialEntries={[path]}>
      <PlatformProvider platform={{ ...fakePlatform(), ...platform }}>
        <ApiProvider api={api}>
          <Session initial={user}>
            <Routes>
              <Route path="/upload-document" element={<UploadDocumentPage />} />
              <Route path="/admin/documents" element={<AdminDocumentsPage />} />
              <Route path="*" element={<p>Elsewhere</p>} />
            </Routes>
            <LocationProbe />
          </Session>
        </ApiProvider>
      </PlatformProvider>
    </MemoryRouter>,
  );
}
