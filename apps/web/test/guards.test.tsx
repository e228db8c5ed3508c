import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { STORAGE_KEYS } from '@campus/protocol';
import { admin, mockServer, renderApp, storeSessionFor, student } from './helpers';

const sync = vi.hoisted(() => ({ deleteUserDatabase: vi.fn(async (_userId: string) => undefined) }));
vi.mock('@campus/sync', async (importOriginal) => ({ ...(await importOriginal<object>()), ...sync }));

const location = () => screen.getByTestId('location').textContent;

beforeEach(() => sync.deleteUserDatabase.mockClear());

describe('the sign-in guard', () => {
  it('sends a signed-out visitor to /login and returns to the origin after login', async () => {
    mockServer({ 'POST /api/auth/login': () => ({ status: 200, body: { token: 'tok', user: student } }) });
    renderApp('/confessions?confessionId=abc');
    await waitFor(() => expect(location()).toBe('/login'));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'alex@campustalk.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'student-demo-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Confessions', level: 1 })).toBeTruthy();
    expect(location()).toBe('/confessions?confessionId=abc');
  });

  it('keeps the origin when switching to signup and back', async () => {
    mockServer({ 'POST /api/auth/login': () => ({ status: 200, body: { token: 'tok', user: student } }) });
    renderApp('/friends');
    fireEvent.click(await screen.findByRole('link', { name: 'Sign up' }));
    fireEvent.click(await screen.findByRole('link', { name: 'Log in' }));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'alex@campustalk.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'student-demo-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(location()).toBe('/friends'));
  });

  it('sends / and unknown paths to Talk when signed in, / to login when not', async () => {
    mockServer(storeSessionFor(student));
    renderApp('/no/such/page');
    expect(await screen.findByText('Hi Alex')).toBeTruthy();
    expect(location()).toBe('/talk');
  });

  it('sends / to login when signed out', async () => {
    mockServer({});
    renderApp('/');
    await waitFor(() => expect(location()).toBe('/login'));
  });

  it('sends a signed-in user away from the auth screens', async () => {
    mockServer(storeSessionFor(student));
    renderApp('/signup');
    expect(await screen.findByText('Hi Alex')).toBeTruthy();
    expect(location()).toBe('/talk');
  });

  it('shows a calm loading state while the stored token is checked', async () => {
    let answer: (value: Response) => void = () => undefined;
    const { fetchMock } = mockServer({});
    storeSessionFor(student);
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderApp('/talk');
    expect(screen.getByRole('status').textContent).toContain('Checking your session');
    answer(new Response(JSON.stringify(student), { status: 200 }));
    expect(await screen.findByText('Hi Alex')).toBeTruthy();
  });

  it('logs out when the stored token is refused: storage, worker and local database are cleared', async () => {
    const { calls } = mockServer({
      'GET /api/auth/me': () => ({ status: 401, body: { error: 'Not authenticated' } }),
    });
    localStorage.setItem(STORAGE_KEYS.session, JSON.stringify({ token: 'stale', userId: 'u-alex' }));
    renderApp('/profile');
    await waitFor(() => expect(location()).toBe('/login'));
    expect(localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
    expect(sync.deleteUserDatabase).toHaveBeenCalledWith('u-alex');
    expect(calls[0]?.authorization).toBe('Bearer stale');
  });

  it('keeps the session when the server cannot be reached, and retries', async () => {
    let online = false;
    mockServer({ 'GET /api/auth/me': () => (online ? { status: 200, body: student } : 'network-error') });
    storeSessionFor(student);
    renderApp('/talk');
    expect(await screen.findByRole('heading', { name: 'Can’t reach Campus Talk' })).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.session)).not.toBeNull();
    expect(sync.deleteUserDatabase).not.toHaveBeenCalled();
    online = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hi Alex')).toBeTruthy();
  });
});

describe('logout', () => {
  it('calls the server, clears everything and goes to /login without remembering the page', async () => {
    const { calls } = mockServer({
      ...storeSessionFor(student),
      'POST /api/auth/logout': () => ({ status: 500 }),
    });
    renderApp('/profile');
    fireEvent.click((await screen.findAllByRole('button', { name: 'Logout' }))[0]!);
    await waitFor(() => expect(location()).toBe('/login'));
    expect(calls.some((call) => call.method === 'POST' && call.path === '/api/auth/logout')).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
    expect(sync.deleteUserDatabase).toHaveBeenCalledWith('u-alex');
  });
});

describe('the admin guard', () => {
  it('sends a non-admin from /admin/documents to /talk', async () => {
    mockServer(storeSessionFor(student));
    renderApp('/admin/documents');
    expect(await screen.findByRole('heading', { name: 'Talk', level: 1 })).toBeTruthy();
    expect(location()).toBe('/talk');
    expect(screen.queryByRole('button', { name: 'Admin Page' })).toBeNull();
  });

  it('lets an admin in, and the Admin Page button leads there', async () => {
    mockServer(storeSessionFor(admin));
    renderApp('/talk');
    fireEvent.click(await screen.findByRole('button', { name: 'Admin Page' }));
    expect(await screen.findByRole('heading', { name: 'Document review', level: 1 })).toBeTruthy();
    expect(location()).toBe('/admin/documents');
  });
});
