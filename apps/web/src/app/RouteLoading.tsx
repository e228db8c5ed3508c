import { useEffect, useState } from 'react';
import { Spinner } from '../components/Spinner';
import { FullPageLoading } from '../features/session/FullPageStatus';
import './route-loading.css';

/**
 * Chunks usually arrive from the service worker's cache within a frame or two: showing a loader at once
 * would only flash. After this long the wait is real and is said out loud.
 */
export const ROUTE_LOADING_DELAY_MS = 200;

function useDelayOver(): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setOver(true), ROUTE_LOADING_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return over;
}

/** While a whole screen (the auth screens, the signed-in shell) downloads. */
export function ScreenLoading() {
  return useDelayOver() ? <FullPageLoading label="Loading Campus Talk…" /> : null;
}

/** While a page inside the shell downloads: the sidebar and top bar stay, the content area waits. */
export function PageLoading() {
  if (!useDelayOver()) return null;
  return (
    <div className="route-loading" role="status" aria-live="polite">
      <Spinner />
      <span>Loading…</span>
    </div>
  );
}
