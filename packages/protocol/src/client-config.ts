import { z } from 'zod';

/**
 * `GET /api/client-config`: what a client that is not served by this server (the desktop app) must know
 * before it shows anything. Public and cacheable: nothing in it is secret.
 */
export const CLIENT_CONFIG_PATH = '/api/client-config';

/** More than the server ever sends (one bucket today): a longer list is refused, not trimmed. */
export const MAX_FILE_ORIGINS = 4;

/** A DNS name (lower case, punycode) or an IP address, with an optional port: nothing else CSP would read. */
const PLAIN_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * A bare `http(s)://host[:port]` origin, exactly as `new URL(value).origin` writes it. Clients put these in a
 * Content-Security-Policy, so anything else (a path, a quote, a semicolon, another scheme) could widen or
 * inject a directive. The URL parser alone is not enough: it keeps `*`, `'` and `;` in a host name.
 */
export function isHttpOrigin(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.origin === value &&
    PLAIN_HOST.test(url.host)
  );
}

/**
 * `fileOrigins`: where download URLs may point besides the server itself (STORAGE=s3: the bucket's origin,
 * where presigned GET URLs go); empty when the server serves its files. Each entry is checked apart
 * (`isHttpOrigin`), so that a client drops a bad entry instead of losing the whole answer.
 */
export const clientConfigSchema = z.object({
  fileOrigins: z.array(z.string().max(300)).max(MAX_FILE_ORIGINS),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
