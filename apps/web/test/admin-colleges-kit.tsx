import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { STORAGE_KEYS, type CollegeOption, type ManualCollegeItem, type User } from '@campus/protocol';
import { AdminDocumentsPage } from '../src/features/admin/AdminDocumentsPage';
import { AdminCollegesPage } from '../src/features/admin/colleges/AdminCollegesPage';
import { SessionContext, type SessionContextValue } from '../src/features/session/session-context';
import { createApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';
import { readSession } from '../src/lib/session-storage';
import { PlatformProvider } from '../src/platform';
import { fakePlatform } from './helpers';

/** Test data and rendering of the admins' manual colleges page (admin-colleges.test.tsx). */

export const MANUAL = '/api/admin/colleges/manual';
export const manualPage = (limit = 20, after?: string) =>
  `GET ${MANUAL}?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
export const approvePath = (id: string) => `POST /api/admin/colleges/${id}/approve`;
export const mergePath = (id: string) => `POST /api/admin/colleges/${id}/merge`;

export function manual(
  id: string,
  name: string,
  overrides: Partial<ManualCollegeItem> = {},
): ManualCollegeItem {
  return {
    id,
    name,
    country: 'IN',
    stateCode: null,
    stateName: null,
    city: null,
    createdAt: '2026-01-02T10:00:00.000Z',
    students: 2,
    ...overrides,
  };
}

export function page(colleges: ManualCollegeItem[], next: string | null = null, total = colleges.length) {
  return { status: 200, body: { colleges, next, total } };
}

export function option(id: string, name: string, overrides: Partial<CollegeOption> = {}): CollegeOption {
  return { id, name, country: 'US', city: '', stateName: '', ...overrides };
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

/** The two admin pages alone (no shell, no sync), signed in as `user` with a token in storage. */
export function renderAdmin(path: string, user: User) {
  localStorage.setItem(STORAGE_KEYS.session, JSON.stringify({ token: `token-${user.id}`, userId: user.id }));
  const api = createApiClient({ baseUrl: '', getToken: () => readSession()?.token ?? null });
  const session: SessionContextValue = {
    status: 'signed-in',
    user,
    endedBy: null,
    signIn: () => undefined,
    updateUser: () => undefined,
    logout: async () => undefined,
    expire: async () => undefined,
    retry: () => undefined,
  };
  render(
    <MemoryRouter initialEntries={[path]}>
      <PlatformProvider platform={fakePlatform()}>
        <ApiProvider api={api}>
          <SessionContext value={session}>
            <Routes>
              <Route path="/admin/documents" element={<AdminDocumentsPage />} />
              <Route path="/admin/colleges" element={<AdminCollegesPage />} />
            </Routes>
            <LocationProbe />
          </SessionContext>
        </ApiProvider>
      </PlatformProvider>
    </MemoryRouter>,
  );
}
