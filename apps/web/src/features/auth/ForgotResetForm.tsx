import { useEffect, useState, type FormEvent } from 'react';
import { MSG, OTP_LENGTH, RESET_REDIRECT_MS, validateReset } from '@campus/protocol';
import { failureText } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { resetPassword } from './auth-api';
import { CodeField } from './CodeField';
import { PasswordField } from './fields';
import { FormError, FormStatus } from './messages';

interface ForgotResetFormProps {
  email: string;
  /** The server's answer to the code request, shown until something newer replaces it. */
  sentMessage: string;
  onDone(email: string, message: string): void;
  onChangeEmail(): void;
}

export function ForgotResetForm({ email, sentMessage, onDone, onChangeEmail }: ForgotResetFormProps) {
  useDocumentTitle('Reset password');
  const api = useApi();
  const [otpCode, setOtpCode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [showPasswords, setShowPasswords] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [doneMessage, setDoneMessage] = useState<string | null>(null);

  // After a successful reset: let the confirmation be read, then return to login with the e-mail filled in.
  useEffect(() => {
    if (doneMessage === null) return;
    const timer = setTimeout(() => onDone(email, doneMessage), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [doneMessage, email, onDone]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validateReset({ email, otpCode, newPassword, confirmPassword });
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      setDoneMessage(await resetPassword(api, { email, otpCode, newPassword }));
    } catch (failure) {
      setError(failureText(failure, MSG.resetFailed, MSG.networkErrorShort));
      setBusy(false);
    }
  }

  return (
    <>
      <header className="auth-card__header">
        <h1 className="auth-card__title">Choose a new password</h1>
        <p className="auth-card__subtitle">
          Enter the {OTP_LENGTH}-digit code sent to <strong className="auth-card__email">{email}</strong>
        </p>
      </header>
      {error ? <FormError>{error}</FormError> : <FormStatus>{doneMessage ?? sentMessage}</FormStatus>}
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <CodeField value={otpCode} onValueChange={setOtpCode} />
        <PasswordField
          label="New password"
          name="new-password"
          autoComplete="new-password"
          value={newPassword}
          onValueChange={setNewPassword}
          visible={showPasswords}
          onToggleVisible={() => setShowPasswords((shown) => !shown)}
          hint="At least 6 characters."
        />
        <PasswordField
          label="Confirm new password"
          name="confirm-password"
          autoComplete="new-password"
          value={confirmPassword}
          onValueChange={setConfirmPassword}
          visible={showPasswords}
        />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {doneMessage ? 'Password reset' : busy ? 'Resetting…' : 'Reset password'}
        </button>
      </form>
      <p className="auth-card__switch">
        Wrong address or no code?{' '}
        <button type="button" className="link-button" onClick={onChangeEmail} disabled={busy}>
          Request a new code
        </button>
      </p>
    </>
  );
}
