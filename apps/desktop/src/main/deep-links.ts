import path from 'node:path';
import { DEEP_LINK_SCHEME, appRouteSchema, parseStartupQuery } from '@campus/protocol';
import type { App } from 'electron';

const DEEP_LINK_HOST = 'open';

/**
 * campustalk://open?action=… → the in-app route it asks for, read with the same parser as the web app's
 * start-up query so both understand a link alike. Anything else (another host, an unknown or log-only
 * action, a malformed URL) gives null and is ignored.
 */
export function parseDeepLink(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:` || url.host !== DEEP_LINK_HOST) return null;
  if (url.pathname !== '' && url.pathname !== '/') return null;

  const action = parseStartupQuery(url.searchParams);
  if (action.kind === 'open_chat') {
    console.info('Deep link action open_chat for partner', action.partnerId);
    return null;
  }
  if (action.kind !== 'open_confession') return null;
  return appRouteSchema.safeParse(action.route).success ? action.route : null;
}

/**
 * On Windows and Linux the OS starts the app (or a second instance) with the link among its arguments;
 * macOS sends open-url instead.
 */
export function deepLinkRouteFromArgv(argv: readonly string[]): string | null {
  const prefix = `${DEEP_LINK_SCHEME}:`;
  const link = argv.find((arg) => arg.toLowerCase().startsWith(prefix));
  return link ? parseDeepLink(link) : null;
}

/**
 * In development Electron runs as `electron path/to/app`, so the OS must be told to pass the app path too,
 * or a link would start a bare Electron.
 */
export function registerDeepLinkClient(app: App, argv: readonly string[] = process.argv): boolean {
  const script = argv[1];
  if (process.defaultApp && script) {
    return app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [path.resolve(script)]);
  }
  return app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
}
