import { secureHeaders } from 'hono/secure-headers';
import { DESKTOP_ORIGIN } from '@campus/protocol';
import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';

/**
 * CSP: our own origin only, no inline scripts; images also from blob:/data: (previews, avatars);
 * connections to ourselves including the WebSocket. With STORAGE=s3 the bucket's origin is allowed for
 * images, media, frames (the admin's PDF viewer) and fetches: downloads are presigned URLs there.
 */
export function securityHeaders(publicUrl: string, storageOrigin?: string) {
  const extra = storageOrigin ? [storageOrigin] : [];
  const everywhere = headersFor(publicUrl, ["'none'"], extra);
  // A student's document opens inside the admin's review page (the browser's PDF viewer in a frame): only
  // that route may be framed, and only by our own pages (web or desktop). Its URL is signed and short-lived.
  const framedDocument = headersFor(publicUrl, ["'self'", DESKTOP_ORIGIN], extra);
  return createMiddleware((c, next) =>
    c.req.path.startsWith(FRAMEABLE_PREFIX) ? framedDocument(c, next) : everywhere(c, next),
  );
}

/** The only path whose responses may be shown in a frame (of our own pages). */
const FRAMEABLE_PREFIX = '/files/documents/';

function headersFor(publicUrl: string, frameAncestors: string[], storage: string[]) {
  const wsOrigin = publicUrl.replace(/^http/, 'ws');
  return secureHeaders({
    xFrameOptions: frameAncestors.includes("'none'") ? 'DENY' : 'SAMEORIGIN',
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'blob:', 'data:', ...storage],
      mediaSrc: ["'self'", 'blob:', ...storage],
      connectSrc: ["'self'", wsOrigin, ...storage],
      ...(storage.length ? { frameSrc: ["'self'", ...storage] } : {}),
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      frameAncestors,
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
    // The next page of a keyset list (friends, blocks) is named in `Link`, which the renderer must read.
    exposeHeaders: ['Link'],
    maxAge: 600,
  });
}
