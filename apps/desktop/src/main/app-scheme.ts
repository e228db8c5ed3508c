import { DESKTOP_SCHEME } from '@campus/protocol';
import { protocol, type CustomScheme } from 'electron';
import { serveAppRequest } from './app-response';
import { buildContentSecurityPolicy } from './content-security-policy';

/**
 * `standard` gives app:// real origins (IndexedDB, localStorage and permissions keyed to
 * app://campus-talk), `secure` makes it a secure context (getUserMedia, crypto.subtle), `supportFetchAPI`
 * and `codeCache` make it behave like https for the bundle. It does not bypass CSP and has no service
 * workers: the desktop app shows native notifications instead of web push.
 *
 * Being a secure origin means Chromium's mixed-content rules apply: a plain http:// (ws://) server is reachable
 * only on localhost; any other server must use https:// (wss://).
 */
export const APP_SCHEME: CustomScheme = {
  scheme: DESKTOP_SCHEME,
  privileges: {
    standard: true,
    secure: true,
    supportFetchAPI: true,
    codeCache: true,
    stream: true,
    bypassCSP: false,
    allowServiceWorkers: false,
    corsEnabled: false,
  },
};

/** Must run before the app's `ready` event: Chromium reads scheme privileges once at start-up. */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME]);
}

/**
 * Serves the built renderer on app://campus-talk. The CSP is computed per request so a changed server URL
 * takes effect in the next window without restarting the app, and file origins learnt late (the server
 * answered after the window opened) reach the next document served.
 */
export function handleAppScheme(
  rendererDir: string,
  currentServerUrl: () => string,
  fileOriginsOf: (serverUrl: string) => readonly string[] = () => [],
): void {
  protocol.handle(DESKTOP_SCHEME, (request) => {
    const serverUrl = currentServerUrl();
    return serveAppRequest(
      request,
      rendererDir,
      buildContentSecurityPolicy(serverUrl, fileOriginsOf(serverUrl)),
    );
  });
}
