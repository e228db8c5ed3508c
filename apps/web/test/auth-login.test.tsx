import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MSG, STORAGE_KEYS } from '@campus/protocol';
import { mockServer, renderApp, student } from './helpers';

function fillLogin(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
}

describe('login', () => {
  it('asks for both fields before calling the server', async () => {
    const { calls } = mockServer({});
    renderApp('/login');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', MSG.loginRequired);
    fillLogin('alex@campustalk.test', '');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByRole('alert').textContent).toBe(MSG.loginRequired);
    expect(calls.filter((call) => call.path === '/api/auth/login')).toHaveLength(0);
  });

  it('shows and hides the password', () => {
    mockServer({});
    renderApp('/login');
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(password.getAttribute('type')).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide password' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('stores the session and goes to Talk', async () => {
    const { calls } = mockServer({
      'POST /api/auth/login': () => ({ status: 200, body: { token: 'tok-1', user: student } }),
    });
    renderApp('/login');
    fillLogin(' alex@campustalk.test ', 'student-demo-123');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Hi Alex')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/talk');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.session) ?? '{}')).toEqual({
      token: 'tok-1',
      userId: 'u-alex',
      user: student,
    });
    expect(calls[0]?.body).toEqual({ email: 'alex@campustalk.test', password: 'student-demo-123' });
  });

  it('shows the server error, else the fallback, and a distinct network text', async () => {
    let reply: 'error' | 'bare' | 'validation' | 'network' = 'error';
    mockServer({
      'POST /api/auth/login': () => {
        if (reply === 'network') return 'network-error';
        if (reply === 'bare') return { status: 500 };
        if (reply === 'validation')
          return { status: 400, body: { errors: [{ msg: 'First problem' }, { msg: 'Second' }] } };
        return { status: 401, body: { error: 'Invalid email or password.' } };
      },
    });
    renderApp('/login');
    fillLogin('alex@campustalk.test', 'wrong-one');
    const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    submit();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Invalid email or password.'));
    reply = 'bare';
    submit();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(MSG.loginFailed));
    reply = 'validation';
    submit();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('First problem'));
    reply = 'network';
    submit();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(MSG.networkError));
  });

  it('keeps the session of a rejected document and offers the upload again', async () => {
    mockServer({
      'POST /api/auth/login': () => ({
        status: 403,
        body: {
          error: MSG.documentRejected,
          token: 'tok-sam',
          user: { ...student, documentStatus: 'rejected' },
        },
      }),
    });
    renderApp('/login');
    fillLogin('sam@campustalk.test', 'student-demo-123');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(MSG.documentRejected);
    expect(localStorage.getItem(STORAGE_KEYS.session)).toContain('tok-sam');
    expect(screen.getByTestId('location').textContent).toBe('/login');
    fireEvent.click(screen.getByRole('button', { name: /upload again/i }));
    expect(await screen.findByRole('heading', { name: 'Verify your student ID' })).toBeTruthy();
  });

  it('disables the button and says so while signing in', async () => {
    let release: () => void = () => undefined;
    const { fetchMock } = mockServer({});
    const gate = new Promise<void>((resolve) => (release = resolve));
    const respond = async () => {
      await gate;
      return new Response(JSON.stringify({ error: 'Invalid email or password.' }), { status: 401 });
    };
    fetchMock.mockImplementation(respond);
    renderApp('/login');
    fillLogin('alex@campustalk.test', 'secret');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const busy = await screen.findByRole('button', { name: 'Logging in…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    release();
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
  });
});
