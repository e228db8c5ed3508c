import { secureHeaders } from 'hono/secure-headers';
import { DESKTOP_ORIGIN } from '@campus/protocol';
import { cors } from 'hono/cors';

/**
 * CSP: our own origin only, no inline scripts; images also from blob:/data: (previews, avatars);
 * connections to ourselves including the WebSocket.
 */
export function securityHeaders(publicUrl: string) {
  const wsOrigin = publicUrl.replace(/^http/, 'ws');
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'blob:', 'data:'],
      mediaSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'", wsOrigin],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      workerSrc: ["'self'"],
    },
    crossOriginEmbedderPolicy: false,
    permissionsPolicy: { camera: ['self'], microphone: ['self'] },
  });
}

/** The desktop app's renderer lives at app://campus-talk; it may call the API, nothing else cross-origin. */
export function apiCors() {
  return cors({
    origin: (origin) => (origin === DESKTOP_ORIGIN ? origin : null),
    allowHeaders: ['Authorization', 'Content-Type'],
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  });
}
