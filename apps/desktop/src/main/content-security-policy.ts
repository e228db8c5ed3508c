/**
 * The renderer's Content-Security-Policy. It mirrors the server's policy for the web app; the difference is
 * that here the API is another origin, so the configured server (HTTP for the API and uploaded images, WS for
 * realtime) is allowed beside 'self'. No inline scripts, no eval, no plugins; frames only for the server's
 * document viewer path.
 */
export function buildContentSecurityPolicy(serverUrl: string): string {
  const server = serverOrigins(serverUrl);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'blob:', 'data:', ...server.http],
    'media-src': ["'self'", 'blob:', ...server.http],
    'connect-src': ["'self'", ...server.http, ...server.ws],
    'font-src': ["'self'"],
    'worker-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    // The admin's PDF viewer: a student's document from the server's signed /files/documents/ URLs only.
    'frame-src': server.http.length ? server.http.map((origin) => `${origin}/files/documents/`) : ["'none'"],
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
