import { afterEach, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { STORAGE_KEYS, type Platform, type User } from '@campus/protocol';
import { AppProviders } from '../src/app/AppProviders';
import { AppRoutes } from '../src/app/AppRoutes';

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

export const student: User = {
  id: 'u-alex',
  firstName: 'Alex',
  lastName: 'Rivera',
  email: 'alex@campustalk.test',
  profilePictureUrl: null,
  role: 'user',
  course: 'Computer Science',
  year: 2,
  bio: null,
  college: 'IIT Bombay',
  documentStatus: 'verified',
  documentDeadline: null,
  documentUrl: null,
  documentSubmittedAt: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastActiveAt: null,
};

export const admin: User = { ...student, id: 'u-ada', firstName: 'Ada', lastName: 'Admin', role: 'admin' };

export function fakePlatform(): Platform {
  return {
    serverUrl: '',
    appVersion: 'test',
    notify: async () => undefined,
    onNavigate: () => () => undefined,
    openExternal: async () => undefined,
    pickFiles: async () => [],
    saveFile: async () => true,
    requestMediaPermission: async () => false,
  };
}

type Reply = { status: number; body?: unknown } | 'network-error';
type Handler = (body: unknown) => Reply;

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
}

/**
 * Replaces fetch with a tiny server: handlers keyed 'METHOD /path'. Unknown routes answer 404, as the real
 * server does for routes that do not exist yet.
 */
export function mockServer(routes: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = String(input);
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const headers = new Headers(init.headers);
    calls.push({ method, path, body, authorization: headers.get('Authorization') });
    const handler = routes[`${method} ${path}`];
    const reply: Reply = handler ? handler(body) : { status: 404, body: { error: 'Not found' } };
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** A stored session whose token the mock server accepts for `user`. */
export function storeSessionFor(user: User, token = `token-${user.id}`): Record<string, Handler> {
  localStorage.setItem(STORAGE_KEYS.session, JSON.stringify({ token, userId: user.id }));
  return { 'GET /api/auth/me': () => ({ status: 200, body: user }) };
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

export function renderApp(path: string): void {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders platform={fakePlatform()}>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}
