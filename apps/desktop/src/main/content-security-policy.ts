import { isHttpOrigin } from '@campus/protocol';

/**
 * The renderer's Content-Security-Policy. It mirrors the server's policy for the web app; the difference is
 * that here the API is another origin, so the configured server (HTTP for the API and uploaded images, WS for
 * realtime) is allowed beside 'self'. No inline scripts, no eval, no plugins; frames only for the server's
 * document viewer path (and the bucket, below).
 *
 * `fileOrigins` are where the server's download URLs point besides itself (STORAGE=s3: the bucket, learnt
 * from `GET /api/client-config`): allowed for images, media, fetches and frames, as the server's own CSP
 * does for the web app.
 */
export function buildContentSecurityPolicy(serverUrl: string, fileOrigins: readonly string[] = []): string {
  const server = serverOrigins(serverUrl);
  // Checked again here, whatever the caller did: an entry that is not a bare origin could inject a directive.
  const files = [...new Set(fileOrigins.filter(isHttpOrigin))];
  // The admin's PDF viewer: a student's document from the server's signed /files/documents/ URLs, or a
  // presigned URL on the bucket. The bucket is allowed as a whole origin: its documents are at `/documents/…`
  // on a virtual-hosted bucket but `/<bucket>/documents/…` path-style, and which one the server uses is not
  // ours to know. On a path-style store that admits its other buckets too; a frame there is another origin,
  // with no access to the app, and the frame guard keeps the main frame on app://.
  const frames = [...server.http.map((origin) => `${origin}/files/documents/`), ...files];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'blob:', 'data:', ...server.http, ...files],
    'media-src': ["'self'", 'blob:', ...server.http, ...files],
    'connect-src': ["'self'", ...server.http, ...server.ws, ...files],
    'font-src': ["'self'"],
    'worker-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'frame-src': frames.length ? frames : ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/**
 * Only a plain http(s) origin ever reaches the policy: the settings store validates the URL, and anything
 * else here (a quote, a semicolon) could otherwise inject a directive.
 */
function serverOrigins(serverUrl: string): { http: string[]; ws: string[] } {
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    return { http: [], ws: [] };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { http: [], ws: [] };
  const wsProtocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return { http: [url.origin], ws: [`${wsProtocol}//${url.host}`] };
}
