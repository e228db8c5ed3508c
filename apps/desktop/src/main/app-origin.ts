import { DESKTOP_HOST, DESKTOP_ORIGIN, DESKTOP_SCHEME, appRouteSchema } from '@campus/protocol';

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * True only for URLs (or bare origins) on app://campus-talk itself. Compares parsed parts rather than
 * prefixes, so look-alikes such as app://campus-talk.evil, app://campus-talk:1 or app://x@campus-talk fail.
 */
export function isAppUrl(raw: string | null | undefined): boolean {
  if (!raw) return false;
  const url = parseUrl(raw);
  return (
    url !== null &&
    url.protocol === `${DESKTOP_SCHEME}:` &&
    url.host === DESKTOP_HOST &&
    url.username === '' &&
    url.password === ''
  );
}

/** The in-app route (path + query) of an app:// URL, or null for anything else. */
export function routeOfAppUrl(raw: string): string | null {
  if (!isAppUrl(raw)) return null;
  const url = new URL(raw);
  const route = `${url.pathname || '/'}${url.search}`;
  return appRouteSchema.safeParse(route).success ? route : null;
}

/** The app:// URL that opens `route`; the protocol handler answers every route with index.html. */
export function appUrlForRoute(route: string): string {
  const parsed = appRouteSchema.safeParse(route);
  return `${DESKTOP_ORIGIN}${parsed.success ? parsed.data : '/'}`;
}
