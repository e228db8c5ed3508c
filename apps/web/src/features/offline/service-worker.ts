/**
 * The app-shell service worker (public/sw.js), for the production build in a browser only: the dev server
 * reloads modules itself, and the desktop app serves its files from its own app:// scheme.
 */
export function shouldRegisterServiceWorker(
  production: boolean = import.meta.env.PROD,
  page: Pick<Location, 'protocol'> = location,
): boolean {
  return production && /^https?:$/.test(page.protocol) && 'serviceWorker' in navigator;
}

/** Build assets this page loaded before the worker controlled it, lazy chunks included. */
function loadedAssetPaths(): string[] {
  if (typeof performance === 'undefined' || !performance.getEntriesByType) return [];
  const paths = new Set<string>();
  for (const entry of performance.getEntriesByType('resource')) {
    const url = new URL(entry.name, location.href);
    if (url.origin === location.origin && url.pathname.startsWith('/assets/')) paths.add(url.pathname);
  }
  return [...paths];
}

/** Idempotent: registering again (after a logout unregistered it, then a new sign-in) is cheap. */
export function registerServiceWorker(): void {
  if (!shouldRegisterServiceWorker()) return;
  const container = navigator.serviceWorker;
  container
    .register('/sw.js', { scope: '/' })
    .then(() => container.ready)
    .then((registration) => {
      registration.active?.postMessage({ type: 'cache-assets', paths: loadedAssetPaths() });
    })
    .catch((error: unknown) => {
      // Without the worker the app still works online; only the offline reload is lost.
      console.warn('Service worker registration failed', error);
    });
}
