import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { CLIENT_CONFIG_PATH, SERVER_MSG } from '@campus/protocol';
import type { AppDeps } from './deps';
import { HttpError } from './lib/http-error';
import type { NodeLifecycle } from './lib/lifecycle';
import { apiCors, securityHeaders } from './lib/security-headers';
import { storageOrigin } from './lib/storage';
import { mountWebApp } from './lib/static-web';
import { clientAddress } from './lib/trusted-proxies';
import { isLoopbackHost } from './lib/mail/mail-policy';
import { authRoutes } from './modules/auth/routes';
import { clientConfigRoutes } from './modules/client-config/routes';
import { devMailboxRoutes } from './modules/dev/routes';
import { healthRoutes, readinessRoutes } from './modules/health/routes';
import { notesRoutes } from './modules/notes/routes';
import { chatRoutes } from './modules/chat/routes';
import { conversationRoutes } from './modules/conversations/routes';
import { directoryRoutes } from './modules/directory/routes';
import { friendRoutes } from './modules/friends';
import { callLogRoutes, rtcRoutes } from './modules/calls';
import { notificationRoutes, pushRoutes } from './modules/notifications/routes';
import { confessionRoutes } from './modules/confessions/routes';
import { moderationRoutes } from './modules/moderation/routes';
import { groupRoutes } from './modules/groups/routes';
import { attachmentRoutes } from './modules/attachments/routes';
import { fileRoutes } from './modules/attachments/file-routes';
import { UPLOAD_PATH } from './modules/attachments/upload';
import { collegeAdminRoutes, collegeRoutes } from './modules/colleges';
import { PROFILE_PICTURE_PATH, profileRoutes } from './modules/profile';
import { OCR_UPLOAD_PATH, ocrRoutes } from './modules/ocr';
import { DOCUMENT_PUT_PATH, verificationRoutes } from './modules/verification';
import { reportAdminRoutes, reportRoutes } from './modules/reports';
import { randomRoutes } from './modules/random';

/** JSON bodies of this API are small; uploads get their own limits on their own routes. */
const MAX_JSON_BODY = 64 * 1024;

/** The HTTP routes; the realtime channel `/ws` (REALTIME_PATH) is upgraded outside them (realtime/ws-route.ts). */
export function createApp(deps: AppDeps, lifecycle: NodeLifecycle) {
  const app = new Hono();

  // Registered before the security headers so it runs after them: signed file URLs are the authorization,
  // and the desktop renderer (app://campus-talk) must be able to show the images they point to.
  app.use('/files/*', async (c, next) => {
    await next();
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
  });
  app.use('*', securityHeaders(deps.config.publicUrl, storageOrigin(deps.config.storage)));
  // Who the client is, behind a load balancer listed in TRUSTED_PROXIES: every per-IP limit reads it.
  app.use('*', clientAddress(deps.config.trustedProxies));
  app.use('/api/*', apiCors());
  // Counts requests for a drain; while draining, refuses WebSocket upgrades and ends keep-alive.
  app.use('*', lifecycle.middleware());
  const jsonBodyLimit = bodyLimit({
    maxSize: MAX_JSON_BODY,
    onError: (c) => c.json({ error: SERVER_MSG.bodyTooLarge }, 413),
  });
  // Attachment uploads and the profile picture carry files: their routes apply their own limits instead.
  app.use('/api/*', (c, next) =>
    UPLOAD_PATH.test(c.req.path) ||
    PROFILE_PICTURE_PATH.test(c.req.path) ||
    OCR_UPLOAD_PATH.test(c.req.path) ||
    DOCUMENT_PUT_PATH.test(c.req.path)
      ? next()
      : jsonBodyLimit(c, next),
  );

  // Liveness, and readiness for a load balancer (the database answers; 503 while draining).
  app.route('/healthz', healthRoutes());
  app.route('/readyz', readinessRoutes(lifecycle));
  // Public, before any /api middleware that authenticates: the desktop app reads it to build its CSP.
  app.route(CLIENT_CONFIG_PATH, clientConfigRoutes(deps));
  app.route('/api/auth', authRoutes(deps));
  // Before the directory: POST /api/users/register-push-token must not fall into /api/users/:userId.
  app.route('/api', pushRoutes(deps));
  // The student-ID upload, the admin review, /files/documents/* and the profile's college suggestion:
  // before the profile's and the directory's middleware, which cover /api/users/*.
  app.route('/', verificationRoutes(deps));
  // Before the directory too (its middleware covers /api/users/*); also serves /files/avatars/:userId.
  app.route('/', profileRoutes(deps));
  // Friends, friend requests and blocks (/api/users/friends…, /api/users/blocks…): before the directory,
  // whose /api/users/:userId would take /api/users/friends and /api/users/blocks.
  app.route('/api', friendRoutes(deps));
  // The call history (/api/users/call-logs): before the directory too, for the same reason.
  app.route('/api', callLogRoutes(deps));
  // The ICE servers for calls (TURN_URLS, TURN_SECRET).
  app.route('/api/rtc', rtcRoutes(deps));
  app.route('/api/users', directoryRoutes(deps));
  // The spec's text-recognition service (`POST {text-recognition service}/upload`), served by this server.
  app.route('/api/ocr', ocrRoutes(deps));
  app.route('/api/notifications', notificationRoutes(deps));
  app.route('/api/conversations', conversationRoutes(deps));
  app.route('/api/chat', chatRoutes(deps));
  app.route('/api/groups', groupRoutes(deps));
  app.route('/api/confessions', confessionRoutes(deps));
  app.route('/api', attachmentRoutes(deps));
  app.route('/files', fileRoutes(deps));
  // The college picker's lists (`/colleges/US.json`, `/colleges/IN-MH.json`): public, with ETags.
  app.route('/colleges', collegeRoutes(deps));
  // The admins' review of colleges typed in by students (approve or merge).
  app.route('/api/admin/colleges', collegeAdminRoutes(deps));
  // Reports (issue 13): filing one, and the admins' queue beside the documents' (/api/admin/reports…,
  // /api/admin/users/:id/random-hold/clear; each route authenticates itself).
  app.route('/api/reports', reportRoutes(deps));
  app.route('/api/random', randomRoutes(deps));
  app.route('/api/admin', reportAdminRoutes(deps));
  // The spec's moderation service (`POST /moderation/moderate`), served by this server.
  app.route('/moderation', moderationRoutes(deps));
  // Group notes: a WebSocket per group, authorized before the upgrade (NOTES_PATH of @campus/protocol), on
  // SQLite or PostgreSQL alike.
  app.route('/notes', notesRoutes(deps));
  // On a loopback listener the mailbox answers only requests made on this machine, not through a proxy.
  if (deps.devMailbox)
    app.route('/dev', devMailboxRoutes(deps.devMailbox, { localOnly: isLoopbackHost(deps.config.host) }));

  app.all('/api/*', (c) => c.json({ error: SERVER_MSG.notFound }, 404));

  app.onError((error, c) => {
    if (error instanceof HttpError) {
      if (error.extra?.retryAfter !== undefined) c.header('Retry-After', String(error.extra.retryAfter));
      const { retryAfter: _retryAfter, ...extra } = error.extra ?? {};
      return c.json({ error: error.message, ...extra }, error.status);
    }
    deps.log.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
    return c.json({ error: SERVER_MSG.internal }, 500);
  });
  app.notFound((c) => c.json({ error: SERVER_MSG.notFound }, 404));

  const servesWeb = mountWebApp(app, deps.config.webDist);
  if (!servesWeb)
    deps.log.warn({ webDist: deps.config.webDist }, 'web app not built: run `pnpm build` to serve the UI');
  return app;
}
