import { useLocation } from 'react-router-dom';
import { ThemeToggle } from '../theme/ThemeToggle';
import { BrandPanel } from './BrandPanel';
import { LoginFlow } from './LoginFlow';
import { SignupFlow } from './SignupFlow';
import './auth.css';

/** One screen for /login and /signup: the brand panel beside the form card (stacked on phones). */
export function AuthScreen() {
  const { pathname } = useLocation();
  const mode = pathname.startsWith('/signup') ? 'signup' : 'login';
  return (
    <div className="auth">
      <BrandPanel />
      <main className="auth__main">
        <div className="auth__bar">
          <ThemeToggle className="icon-button auth__theme" />
        </div>
        <section className="auth-card">
          {mode === 'signup' ? <SignupFlow key="signup" /> : <LoginFlow key="login" />}
        </section>
        <p className="auth__footnote">For verified university students only.</p>
      </main>
    </div>
  );
}
