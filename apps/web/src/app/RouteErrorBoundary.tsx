import { Component, type ReactNode } from 'react';
import { Logo } from '../components/Logo';
import '../features/session/full-page.css';

interface State {
  failed: boolean;
}

/**
 * A screen's chunk that cannot be fetched (offline before it was ever cached, or a deploy removed it) must
 * not blank the whole app: this says so and offers a reload, which picks up the current build.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('A screen failed to load', error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="full-page">
        <div className="full-page__card" role="alert">
          <Logo size={48} />
          <h1 className="full-page__title">This screen did not load</h1>
          <p className="full-page__text">Check your connection, then reload Campus Talk.</p>
          <div className="full-page__actions">
            <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
              Reload
            </button>
          </div>
        </div>
      </main>
    );
  }
}
