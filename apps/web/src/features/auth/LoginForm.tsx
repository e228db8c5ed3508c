import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { MSG, validateLogin } from '@campus/protocol';
import { failureText } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { safeReturnPath } from '../session/guards';
import { useSession } from '../session/session-context';
import { login } from './auth-api';
import { PasswordField, TextField } from './fields';
import { FormError, FormStatus } from './messages';

interface LoginFormProps {
  initialEmail: string;
  /** A message carried over from the previous view, such as the password-reset confirmation. */
  notice: string | null;
  onForgotPassword(email: string): void;
}

export function LoginForm({ initialEmail, notice, onForgotPassword }: LoginFormProps) {
  useDocumentTitle('Log in');
  const api = useApi();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [documentRejected, setDocumentRejected] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validateLogin({ email, password });
    setDocumentRejected(false);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const result = await login(api, email, password);
      signIn(result.auth);
      if (result.kind === 'document-rejected') {
        // Signed in, but the next step is a new upload: say so here and offer the way there.
        setError(result.message);
        setDocumentRejected(true);
        setBusy(false);
        return;
      }
      void navigate(safeReturnPath(location.state) ?? '/talk', { replace: true });
    } catch (failure) {
      setError(failureText(failure, MSG.loginFailed, MSG.networkError));
      setBusy(false);
    }
  }

  return (
    <>
      <header className="auth-card__header">
        <h1 className="auth-card__title">Welcome back</h1>
        <p className="auth-card__subtitle">Log in to pick up where your conversations left off.</p>
      </header>
      {notice && !error ? <FormStatus>{notice}</FormStatus> : null}
      {error ? (
        <FormError>
          <span>{error}</span>
          {documentRejected ? (
            <button
              type="button"
              className="button button--primary button--small form-message__action"
              onClick={() => navigate('/upload-document')}
            >
              Upload again
            </button>
          ) : null}
        </FormError>
      ) : null}
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
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onValueChange={setPassword}
          visible={showPassword}
          onToggleVisible={() => setShowPassword((shown) => !shown)}
        />
        <div className="auth-form__row">
          <button type="button" className="link-button" onClick={() => onForgotPassword(email)}>
            Forgot password?
          </button>
        </div>
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <p className="auth-card__switch">
        New to Campus Talk?{' '}
        <Link to="/signup" state={location.state as unknown}>
          Sign up
        </Link>
      </p>
    </>
  );
}
