import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  UPLOAD,
  UPLOAD_MSG,
  SERVER_MSG,
  documentSignRequestSchema,
  documentSubmitRequestSchema,
} from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { DOCUMENT_KEY_PATTERN } from '../../lib/storage';
import { readBody } from '../../lib/validate';
import { collegeSuggestion } from './academic';
import { adminRoutes } from './admin-routes';
import { documentFileRoutes } from './file-route';
import { toMyDocument } from './mappers';
import { receiveUpload } from './receive';
import { documentById, userRow } from './repo';
import { signUpload, submitDocument } from './upload';
import { DOCUMENT_KEY_PREFIX, localUploadTarget, mediaType } from './upload-target';

const HOUR = 60 * 60_000;
/** Signed uploads per user: a student retrying many times, not a script filling the disk. */
export const DOCUMENT_SIGN_RATE = { limit: 20, windowMs: HOUR };
/** PUTs per user (by the key's owner: the route has no session). */
export const DOCUMENT_PUT_RATE = { limit: 20, windowMs: HOUR };
/** Submissions per user: each one runs text recognition on the server. */
export const DOCUMENT_SUBMIT_RATE = { limit: 10, windowMs: HOUR };

/** The signed PUT is exempt from the 64 KB JSON limit of /api/* (app.ts); it has UPLOAD.maxBytes below. */
export const DOCUMENT_PUT_PATH = /^\/api\/upload\/document\/put\/[^/]+\/[^/]+$/;

interface PutEnv {
  Variables: { uploadKey: string; uploadType: string };
}

const documentBodyLimit = bodyLimit({
  maxSize: UPLOAD.maxBytes,
  // The rest of the body is never read: close the connection rather than leave it unusable.
  onError: (c) => c.json({ error: UPLOAD_MSG.fileTooLarge }, 413, { Connection: 'close' }),
});

/**
 * The student-ID upload (spec 000, sections 4 and 7) and the admin review:
 * - `POST /api/upload/document/sign`, `POST /api/upload/document/submit`, `GET /api/upload/document/status`
 *   (signed in);
 * - `PUT /api/upload/document/put/<user>/<random>?exp&sig`: the signed upload itself. No bearer token: the
 *   URL's signature (over the key, the content type and the expiry) is the permission, as with an object
 *   store's presigned URL;
 * - `/api/upload/admin/*` (admin-routes.ts), `/files/documents/*` (file-route.ts);
 * - `GET /api/users/profile/college-suggestion`: the college of the sign-up address, for the profile editor.
 */
export function verificationRoutes(deps: AppDeps) {
  const target = localUploadTarget(deps.secret);
  const signs = deps.rates.limiter('verification.document-sign', DOCUMENT_SIGN_RATE);
  const puts = deps.rates.limiter('verification.document-put', DOCUMENT_PUT_RATE);
  const submits = deps.rates.limiter('verification.document-submit', DOCUMENT_SUBMIT_RATE);
  // Per route, not `.use`: the signed PUT below must not ask for a session.
  const auth = requireUser(deps);

  const document = new Hono<AuthEnv>()
    .post('/sign', auth, async (c) => {
      const userId = c.get('user').id;
      await signs.consume(userId);
      const body = await readBody(c, documentSignRequestSchema);
      return c.json(await signUpload(deps, target, userId, body));
    })
    .post('/submit', auth, async (c) => {
      const userId = c.get('user').id;
      const body = await readBody(c, documentSubmitRequestSchema);
      await submits.consume(userId);
      return c.json(await submitDocument(deps, target, userId, body));
    })
    .get('/status', auth, async (c) => {
      const userId = c.get('user').id;
      const found = await deps.transactor.read(async (tx) => {
        const row = await userRow(tx, userId);
        const doc = row?.current_document_id ? await documentById(tx, row.current_document_id) : undefined;
        return row && toMyDocument(row, doc);
      });
      if (!found) throw new HttpError(401, SERVER_MSG.unauthorized);
      return c.json(found);
    });

  const put = new Hono<PutEnv>().put(
    '/:owner/:file',
    async (c, next) => {
      const key = `${DOCUMENT_KEY_PREFIX}${c.req.param('owner')}/${c.req.param('file')}`;
      if (!DOCUMENT_KEY_PATTERN.test(key)) throw new HttpError(404, SERVER_MSG.notFound);
      const contentType = mediaType(c.req.header('content-type'));
      const check = target.verify(key, contentType, c.req.query('exp'), c.req.query('sig'), deps.now());
      if (check === 'invalid') throw new HttpError(403, SERVER_MSG.forbidden);
      if (check === 'expired') throw new HttpError(410, UPLOAD_MSG.uploadExpired);
      await puts.consume(c.req.param('owner'));
      c.set('uploadKey', key);
      c.set('uploadType', contentType);
      await next();
    },
    documentBodyLimit,
    async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const stored = await receiveUpload(deps, c.get('uploadKey'), c.get('uploadType'), bytes);
      return c.json({ ok: true, ...stored });
    },
  );

  const suggestion = new Hono<AuthEnv>().get('/', auth, async (c) => {
    return c.json({ college: await collegeSuggestion(deps.transactor, c.get('user').email) });
  });

  return new Hono()
    .route('/api/upload/document/put', put)
    .route('/api/upload/document', document)
    .route('/api/upload/admin', adminRoutes(deps))
    .route('/api/users/profile/college-suggestion', suggestion)
    .route('/files/documents', documentFileRoutes(deps));
}
