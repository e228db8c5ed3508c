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

/**
 * Applied to every WebContents the app creates, not only the main window, so nothing created later
 * (a devtools-opened page, a future window) escapes the rules.
 */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => denyUnlessAllowed(event, url));
  contents.on('will-frame-navigate', (event) => denyUnlessAllowed(event, event.url));
  contents.on('will-redirect', (event, url) => denyUnlessAllowed(event, url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(handleWindowOpen);
}
