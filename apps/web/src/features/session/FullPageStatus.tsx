import { useState } from 'react';
import { Logo } from '../../components/Logo';
import { Spinner } from '../../components/Spinner';
import { useSession } from './session-context';
import './full-page.css';

export function FullPageLoading({ label = 'Checking your session…' }: { label?: string }) {
  return (
    <main className="full-page">
      <div className="full-page__card" role="status" aria-live="polite">
        <Logo size={48} />
        <Spinner />
        <p className="full-page__text">{label}</p>
      </div>
    </main>
  );
}

/** The start-up check could not reach the server: the session is kept, nothing is deleted. */
export function ServerUnreachable() {
  const { retry, logout } = useSession();
  const [loggingOut, setLoggingOut] = useState(false);
  return (
    <main className="full-page">
      <div className="full-page__card">
        <Logo size={48} />
        <h1 className="full-page__title">Can’t reach Campus Talk</h1>
        <p className="full-page__text">
          Check your connection and try again. You are still signed in on this device.
        </p>
        <div className="full-page__actions">
          <button type="button" className="button button--primary" onClick={retry}>
            Try again
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={loggingOut}
            onClick={() => {
              setLoggingOut(true);
              void logout();
            }}
          >
            {loggingOut ? 'Logging out…' : 'Logout'}
          </button>
        </div>
      </div>
    </main>
  );
}
