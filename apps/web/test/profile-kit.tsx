import 'fake-indexeddb/auto';
import { vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { CollegeOption, User } from '@campus/protocol';
import { createApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';
import { readSession } from '../src/lib/session-storage';
import { mockServer, storeSessionFor, student } from './helpers';
import { fakeSyncFactory, renderWithSync, resetDatabase } from './sync-provider-fake';
import type { ReactNode } from 'react';

/** Test data and renders for the profile tests (profile-*.test.tsx). */
export const SLOW = { timeout: 5000 };

export type Routes = Parameters<typeof mockServer>[0];

export function college(
  id: string,
  name: string,
  city: string,
  stateName: string,
  country = 'IN',
): CollegeOption {
  return { id, name, country, city, stateName };
}

export const MH_COLLEGES: CollegeOption[] = [
  college('in-iitb', 'Indian Institute of Technology Bombay', 'Mumbai', 'Maharashtra'),
  college('in-coep', 'College of Engineering Pune', 'Pune', 'Maharashtra'),
  college('in-spce', 'Sardar Patel College of Engineering', 'Mumbai', 'Maharashtra'),
  college('in-fc', 'Fergusson College', 'Pune', 'Maharashtra'),
];

export const listRoute = (path: string, colleges: CollegeOption[]): Routes => ({
  [`GET ${path}`]: () => ({ status: 200, body: colleges }),
});

const factories: ReturnType<typeof fakeSyncFactory>[] = [];

/** The whole app at `path` for `user`, with a fake sync client; answers `routes` besides `/me`. */
export function renderProfile(user: User = student, routes: Routes = {}, path = '/profile') {
  const server = mockServer({ ...storeSessionFor(user), ...routes });
  const sync = fakeSyncFactory();
  factories.push(sync);
  renderWithSync(path, sync.factory);
  return { ...server, sync };
}

/** After each test: the app unmounted and its databases closed, then the user's cache deleted. */
export async function resetProfile(): Promise<void> {
  cleanup();
  factories
    .splice(0)
    .forEach((sync) => sync.clients.forEach((client) => client.db.close({ disableAutoOpen: true })));
  await resetDatabase(student.id);
}

/** Only the picker, with the real API client over the mock server. */
export function renderWithApi(ui: ReactNode): void {
  const api = createApiClient({ baseUrl: '', getToken: () => readSession()?.token ?? null });
  render(<ApiProvider api={api}>{ui}</ApiProvider>);
}

/**
 * Holds the answers to `METHOD path` until `release()` (to see 'Saving...'): wraps the mock server's fetch.
 */
export function holdRoute(fetchMock: ReturnType<typeof mockServer>['fetchMock'], route: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const answer = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (input, init = {}) => {
    if (`${init.method ?? 'GET'} ${String(input)}` === route) await gate;
    return answer(input, init);
  });
  return { release };
}

/** A picture upload as the server sees it, answered by the test. */
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
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

export function stubXhr(): typeof FakeXhr {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr;
}

/** A file of `size` bytes. */
export function fileOf(name: string, type: string, size = 1000): File {
  return new File([new Uint8Array(size)], name, { type });
}
