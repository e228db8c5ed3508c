import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MSG, SERVER_MSG } from '@campus/protocol';
import { mockServer, renderApp } from './helpers';

const alertText = () => screen.getByRole('alert').textContent;

async function openResetView(email = 'fern@uni.edu') {
  fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
  await screen.findByLabelText('New password');
}

function fillReset(code: string, password: string, confirm: string) {
  fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: code } });
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
}

describe('forgot password', () => {
  it('requires a valid e-mail to request a code', async () => {
    const { calls } = mockServer({});
    renderApp('/login');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'fern@' } });
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
    // The address typed on the login view comes along.
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('fern@');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(alertText()).toBe(MSG.invalidEmail);
    expect(calls).toHaveLength(0);
  });

  it('validates the code, the length and the confirmation of the new password', async () => {
    const { calls } = mockServer({
      'POST /api/auth/request-password-reset': () => ({
        status: 200,
        body: { message: SERVER_MSG.resetRequested },
      }),
    });
    renderApp('/login');
    await openResetView();
    expect(screen.getByRole('status').textContent).toBe(SERVER_MSG.resetRequested);
    fillReset('12', 'second-pass', 'second-pass');
    expect(alertText()).toBe(MSG.invalidOtp);
    fillReset('123456', '12345', '12345');
    expect(alertText()).toBe(MSG.newPasswordTooShort);
    fillReset('123456', 'second-pass', 'second-pasS');
    expect(alertText()).toBe(MSG.newPasswordsMismatch);
    expect(calls.filter((call) => call.path === '/api/auth/reset-password')).toHaveLength(0);
  });

  it('shows the failure texts of the spec', async () => {
    let reply: 'bare' | 'network' = 'bare';
    mockServer({
      'POST /api/auth/request-password-reset': () =>
        reply === 'network' ? 'network-error' : { status: 500 },
    });
    renderApp('/login');
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'fern@uni.edu' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(alertText()).toBe(MSG.resetRequestFailed));
    reply = 'network';
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(alertText()).toBe(MSG.networkErrorShort));
  });

  it('resets, shows the answer, then returns to login with the e-mail filled in', async () => {
    const { calls } = mockServer({
      'POST /api/auth/request-password-reset': () => ({
        status: 200,
        body: { message: SERVER_MSG.resetRequested },
      }),
      'POST /api/auth/reset-password': () => ({ status: 200, body: { message: SERVER_MSG.passwordReset } }),
    });
    renderApp('/login');
    await openResetView('fern@uni.edu');
    fillReset('654321', 'second-pass', 'second-pass');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(SERVER_MSG.passwordReset));
    // Still on the reset view during the pause.
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
    await screen.findByRole('button', { name: 'Log in' }, { timeout: 4000 });
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('fern@uni.edu');
    expect(calls.find((call) => call.path === '/api/auth/reset-password')?.body).toEqual({
      email: 'fern@uni.edu',
      otpCode: '654321',
      newPassword: 'second-pass',
    });
  });

  it('reports a failed reset with the server text or the fallback', async () => {
    let reply: 'wrong' | 'bare' = 'wrong';
    mockServer({
      'POST /api/auth/request-password-reset': () => ({
        status: 200,
        body: { message: SERVER_MSG.resetRequested },
      }),
      'POST /api/auth/reset-password': () =>
        reply === 'wrong'
          ? { status: 400, body: { error: SERVER_MSG.otpWrong } }
          : { status: 500, body: 'oops' },
    });
    renderApp('/login');
    await openResetView();
    fillReset('654321', 'second-pass', 'second-pass');
    await waitFor(() => expect(alertText()).toBe(SERVER_MSG.otpWrong));
    reply = 'bare';
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(alertText()).toBe(MSG.resetFailed));
  });
});
