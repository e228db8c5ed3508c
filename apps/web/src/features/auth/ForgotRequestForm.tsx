import { useState, type FormEvent } from 'react';
import { MSG, validateForgotRequest } from '@campus/protocol';
import { failureText } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { requestPasswordReset } from './auth-api';
import { TextField } from './fields';
import { FormError } from './messages';

interface ForgotRequestFormProps {
  initialEmail: string;
  onCodeSent(email: string, message: string): void;
  onBack(email: string): void;
}

export function ForgotRequestForm({ initialEmail, onCodeSent, onBack }: ForgotRequestFormProps) {
  useDocumentTitle('Forgot password');
  const api = useApi();
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validateForgotRequest(email);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const message = await requestPasswordReset(api, email);
      onCodeSent(email.trim(), message);
    } catch (failure) {
      setError(failureText(failure, MSG.resetRequestFailed, MSG.networkErrorShort));
      setBusy(false);
    }
  }

  return (
    <>
      <header className="auth-card__header">
        <h1 className="auth-card__title">Forgot your password?</h1>
        <p className="auth-card__subtitle">
          Enter your account’s email and we’ll send you a 6-digit code to reset it.
        </p>
      </header>
      {error ? <FormError>{error}</FormError> : null}
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onValueChange={setEmail}
        />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Sending code…' : 'Send code'}
        </button>
      </form>
      <p className="auth-card__switch">
        <button type="button" className="link-button" onClick={() => onBack(email)}>
          Back to login
        </button>
      </p>
    </>
  );
}
