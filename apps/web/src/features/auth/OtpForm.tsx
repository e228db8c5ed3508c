import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { MSG, OTP_LENGTH, validateOtp } from '@campus/protocol';
import { failureText } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSession } from '../session/session-context';
import { signup, verifyOtp, type SignupInput } from './auth-api';
import { CodeField } from './CodeField';
import { FormError, FormStatus } from './messages';

interface OtpFormProps {
  values: SignupInput;
  sentMessage: string;
  onBack(): void;
}

export function OtpForm({ values, sentMessage, onBack }: OtpFormProps) {
  useDocumentTitle('Verify your email');
  const api = useApi();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState(sentMessage);
  const [busy, setBusy] = useState<'verify' | 'resend' | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validateOtp(code);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setBusy('verify');
    try {
      signIn(await verifyOtp(api, values.email, code));
      // A new student's next step is the student-ID upload (their document is pending submission).
      void navigate('/upload-document', { replace: true });
    } catch (failure) {
      setError(failureText(failure, MSG.otpVerifyFailed, MSG.otpVerifyNetwork));
      setBusy(null);
    }
  }

  async function resend() {
    setError(null);
    setBusy('resend');
    try {
      setStatus(await signup(api, values));
      setCode('');
    } catch (failure) {
      setError(failureText(failure, MSG.otpSendFailed, MSG.networkError));
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <header className="auth-card__header">
        <h1 className="auth-card__title">Check your email</h1>
        <p className="auth-card__subtitle">
          Enter the {OTP_LENGTH}-digit code sent to{' '}
          <strong className="auth-card__email">{values.email.trim()}</strong>
        </p>
        {/* The server answers a taken address like a new one (so sign-up reveals no account) and mails
            its owner a reminder instead of a code; this line tells that owner where to look. */}
        <p className="auth-card__subtitle">
          Already have an account with this address? We sent a sign-in reminder instead.
        </p>
      </header>
      {error ? <FormError>{error}</FormError> : <FormStatus>{status}</FormStatus>}
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <CodeField value={code} onValueChange={setCode} />
        <button type="submit" className="button button--primary button--block" disabled={busy !== null}>
          {busy === 'verify' ? 'Verifying…' : 'Verify'}
        </button>
      </form>
      <div className="auth-card__switch auth-card__switch--stack">
        <p>
          Didn’t get it?{' '}
          <button type="button" className="link-button" onClick={resend} disabled={busy !== null}>
            {busy === 'resend' ? 'Sending…' : 'Resend code'}
          </button>
        </p>
        <button type="button" className="link-button" onClick={onBack} disabled={busy !== null}>
          Entered wrong email? Go back.
        </button>
      </div>
    </>
  );
}
