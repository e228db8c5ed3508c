import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { MIN_PASSWORD_LENGTH, MSG, validateSignup } from '@campus/protocol';
import { failureText } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { signup, type SignupInput } from './auth-api';
import { PasswordField, TextField } from './fields';
import { FormError } from './messages';

interface SignupFormProps {
  values: SignupInput;
  onChange(values: SignupInput): void;
  onCodeSent(message: string): void;
}

export function SignupForm({ values, onChange, onCodeSent }: SignupFormProps) {
  useDocumentTitle('Sign up');
  const api = useApi();
  const location = useLocation();
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof SignupInput) => (value: string) => onChange({ ...values, [field]: value });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validateSignup(values);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      onCodeSent(await signup(api, values));
    } catch (failure) {
      setError(failureText(failure, MSG.otpSendFailed, MSG.networkError));
      setBusy(false);
    }
  }

  return (
    <>
      <header className="auth-card__header">
        <h1 className="auth-card__title">Create your account</h1>
        <p className="auth-card__subtitle">Join the students already talking on your campus.</p>
      </header>
      {error ? <FormError>{error}</FormError> : null}
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <TextField
          label="Full name"
          name="name"
          autoComplete="name"
          autoCapitalize="words"
          value={values.fullName}
          onValueChange={set('fullName')}
        />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          value={values.email}
          onValueChange={set('email')}
          hint="Use your university address: we’ll send a code to it."
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          value={values.password}
          onValueChange={set('password')}
          visible={showPassword}
          onToggleVisible={() => setShowPassword((shown) => !shown)}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Sending code…' : 'Sign up'}
        </button>
      </form>
      <p className="auth-card__switch">
        Already have an account?{' '}
        <Link to="/login" state={location.state as unknown}>
          Log in
        </Link>
      </p>
    </>
  );
}
