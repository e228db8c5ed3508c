import { useCallback, useState } from 'react';
import { ForgotRequestForm } from './ForgotRequestForm';
import { ForgotResetForm } from './ForgotResetForm';
import { LoginForm } from './LoginForm';

/** The /login screen's three views: log in, ask for a reset code, reset with the code. */
type View =
  | { mode: 'login'; email: string; notice: string | null }
  | { mode: 'forgot-request'; email: string }
  | { mode: 'forgot-reset'; email: string; sentMessage: string };

export function LoginFlow() {
  const [view, setView] = useState<View>({ mode: 'login', email: '', notice: null });

  const showLogin = useCallback((email: string, notice: string | null = null) => {
    setView({ mode: 'login', email, notice });
  }, []);

  switch (view.mode) {
    case 'forgot-request':
      return (
        <ForgotRequestForm
          initialEmail={view.email}
          onBack={(email) => showLogin(email)}
          onCodeSent={(email, sentMessage) => setView({ mode: 'forgot-reset', email, sentMessage })}
        />
      );
    case 'forgot-reset':
      return (
        <ForgotResetForm
          email={view.email}
          sentMessage={view.sentMessage}
          onDone={showLogin}
          onChangeEmail={() => setView({ mode: 'forgot-request', email: view.email })}
        />
      );
    default:
      return (
        <LoginForm
          initialEmail={view.email}
          notice={view.notice}
          onForgotPassword={(email) => setView({ mode: 'forgot-request', email })}
        />
      );
  }
}
