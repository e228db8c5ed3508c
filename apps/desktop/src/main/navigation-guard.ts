import { isHttpOrigin } from '@campus/protocol';
import type { Event, WebContents } from 'electron';
import { isAppUrl } from './app-origin';
import { handleWindowOpen } from './external-links';

/** Navigation stays inside app://campus-talk; the UI is a single-page app and never leaves its origin. */
export function isAllowedNavigation(url: string): boolean {
  return isAppUrl(url);
}

function denyUnlessAllowed(event: Event, url: string): void {
  if (!isAllowedNavigation(url)) event.preventDefault();
}

/** The one server path a subframe may show: a student's document in the admin's review (a signed URL). */
export const FRAMEABLE_SERVER_PATH = '/files/documents/';

/**
 * A subframe (never the page itself) may load a document from the configured server, for the admin's PDF
 * viewer; the server marks only those responses frameable by this app, and its URLs are short-lived. With
 * STORAGE=s3 the document is a presigned URL on the bucket instead: any path on one of `fileOrigins` (the
 * bucket's path differs between virtual-hosted and path-style addressing, see content-security-policy.ts).
 */
export function isAllowedSubframe(
  url: string,
  serverUrl: string,
  fileOrigins: readonly string[] = [],
): boolean {
  if (isAllowedNavigation(url)) return true;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.pathname.includes('..')) return false;
  // The same check as the CSP's: only a bare http(s) origin can ever match.
  if (fileOrigins.some((origin) => isHttpOrigin(origin) && target.origin === origin)) return true;
  let server: URL;
  try {
    server = new URL(serverUrl);
  } catch {
    return false;
  }
  return (
    (server.protocol === 'http:' || server.protocol === 'https:') &&
    target.origin === server.origin &&
    target.pathname.startsWith(FRAMEABLE_SERVER_PATH)
  );
}

/**
 * Applied to every WebContents the app creates, not only the main window, so nothing created later
 * (a devtools-opened page, a future window) escapes the rules. Both getters are read at each navigation:
 * the server URL and its file origins can change while the app runs.
 */
export function hardenWebContents(
  contents: WebContents,
  serverUrl: () => string = () => '',
  fileOrigins: () => readonly string[] = () => [],
): void {
  contents.on('will-navigate', (event, url) => denyUnlessAllowed(event, url));
  contents.on('will-frame-navigate', (event) => {
    const allowed = event.isMainFrame
      ? isAllowedNavigation(event.url)
      : isAllowedSubframe(event.url, serverUrl(), fileOrigins());
    if (!allowed) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => denyUnlessAllowed(event, url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(handleWindowOpen);
}
