import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MSG, SERVER_MSG, STORAGE_KEYS, resendWaitMessage } from '@campus/protocol';
import { mockServer, renderApp, student } from './helpers';

function fillSignup(fullName: string, email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Full name'), { target: { value: fullName } });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
const alertText = () => screen.getByRole('alert').textContent;

describe('signup', () => {
  it('shows each validation message of the spec before calling the server', () => {
    const { calls } = mockServer({});
    renderApp('/signup');
    submit();
    expect(alertText()).toBe(MSG.signupRequired);
    fillSignup('Nadia Okafor', 'nadia@', 'secret12');
    submit();
    expect(alertText()).toBe(MSG.invalidEmail);
    fillSignup('Nadia Okafor', 'nadia@uni.edu', '12345');
    submit();
    expect(alertText()).toBe(MSG.passwordTooShort);
    fillSignup('   ', 'nadia@uni.edu', 'secret12');
    submit();
    expect(alertText()).toBe(MSG.signupRequired);
    expect(calls.filter((call) => call.path === '/api/auth/signup')).toHaveLength(0);
  });

  it('sends the split name, then verifies the code and goes to the upload page', async () => {
    const newcomer = {
      ...student,
      id: 'u-nadia',
      firstName: 'Nadia',
      lastName: 'Ama Okafor',
      documentStatus: 'pending_submission',
    };
    const { calls } = mockServer({
      'POST /api/auth/signup': () => ({ status: 200, body: { message: SERVER_MSG.otpSent } }),
      'POST /api/auth/verify-otp': () => ({ status: 201, body: { token: 'tok-n', user: newcomer } }),
    });
    renderApp('/signup');
    fillSignup('Nadia Ama Okafor', 'nadia@uni.edu', 'secret12');
    submit();

    expect(await screen.findByText('Entered wrong email? Go back.')).toBeTruthy();
    expect(screen.getByText(/Enter the 6-digit code sent to/).textContent).toBe(
      'Enter the 6-digit code sent to nadia@uni.edu',
    );
    expect(calls[0]?.body).toEqual({
      firstName: 'Nadia',
      lastName: 'Ama Okafor',
      email: 'nadia@uni.edu',
      password: 'secret12',
      phoneNumber: '',
    });

    const code = screen.getByLabelText('Verification code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('maxlength')).toBe('6');

    fireEvent.change(code, { target: { value: '12a45' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(alertText()).toBe(MSG.invalidOtp);

    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Verify your student ID' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/upload-document');
    expect(calls.find((call) => call.path === '/api/auth/verify-otp')?.body).toEqual({
      email: 'nadia@uni.edu',
      otpCode: '123456',
    });
    expect(localStorage.getItem(STORAGE_KEYS.session)).toContain('tok-n');

    fireEvent.click(screen.getByRole('button', { name: "I'll do this later" }));
    expect(await screen.findByText('Hi Nadia')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/talk');
  });

  it('goes back to the form with its values kept', async () => {
    mockServer({ 'POST /api/auth/signup': () => ({ status: 200, body: { message: SERVER_MSG.otpSent } }) });
    renderApp('/signup');
    fillSignup('Nadia Okafor', 'nadia@uni.edu', 'secret12');
    submit();
    fireEvent.click(await screen.findByRole('button', { name: 'Entered wrong email? Go back.' }));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('nadia@uni.edu');
    expect((screen.getByLabelText('Full name') as HTMLInputElement).value).toBe('Nadia Okafor');
  });

  it('shows the error texts of the spec for sending and verifying', async () => {
    let verifyReply: 'bare' | 'network' = 'bare';
    let signupReply: 'wait' | 'ok' | 'bare' = 'wait';
    mockServer({
      'POST /api/auth/signup': () =>
        signupReply === 'wait'
          ? { status: 429, body: { error: resendWaitMessage(30) } }
          : signupReply === 'bare'
            ? { status: 502 }
            : { status: 200, body: { message: SERVER_MSG.otpSent } },
      'POST /api/auth/verify-otp': () =>
        verifyReply === 'network' ? 'network-error' : { status: 400, body: {} },
    });
    renderApp('/signup');
    fillSignup('Nadia Okafor', 'nadia@uni.edu', 'secret12');
    submit();
    await waitFor(() => expect(alertText()).toBe(resendWaitMessage(30)));
    signupReply = 'bare';
    submit();
    await waitFor(() => expect(alertText()).toBe(MSG.otpSendFailed));
    signupReply = 'ok';
    submit();
    fireEvent.change(await screen.findByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(alertText()).toBe(MSG.otpVerifyFailed));
    verifyReply = 'network';
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(alertText()).toBe(MSG.otpVerifyNetwork));
  });
});
