import { Hono } from 'hono';
import {
  CHAT_SERVER_MSG,
  REALTIME_ERRORS,
  SIGNED_FILE_URL_TTL_SECONDS,
  signFilesBodySchema,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { fullAccessOnly } from '../../lib/auth/access';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readBody } from '../../lib/validate';
import { readId } from '../../lib/http/request';
import { memberGroupId } from '../groups';
import { findUserById } from '../users';
import { fileHeaders } from './file-routes';
import { visibleFiles } from './repo';
import { storeDirectAttachment, storeGroupAttachment } from './service';
import { readUpload, uploadBodyLimit } from './upload';

/** Per user: enough for a burst of photos, not for filling the disk. */
export const UPLOAD_RATE = { limit: 30, windowMs: 10 * 60_000 };
/** Per user: the web client batches every key of a tick into one request and keeps URLs until they expire. */
export const SIGN_RATE = { limit: 120, windowMs: 60_000 };

/**
 * Mounted at /api: POST /groups/:groupId/attachments, POST /chat/:partnerId/attachments (multipart,
 * `attachment` + `id`) answer 201 with the stored message; POST /files/sign hands out download URLs.
 * Who may upload is checked before the body is read.
 */
export function attachmentRoutes(deps: AppDeps) {
  const uploads = deps.rates.limiter('attachments.upload', UPLOAD_RATE);
  const signs = deps.rates.limiter('attachments.sign', SIGN_RATE);
  const userNotFound = () => new HttpError(404, CHAT_SERVER_MSG.userNotFound);

  // Mounted at /api, so requireUser goes on each route: a `.use` here would answer 401 for every unknown /api path.
  const auth = requireUser(deps);
  // Sending a file is taking part under the access policy (even in a chat a limited account may answer
  // in text): checked before the body is read. Signing download URLs is reading.
  const participates = fullAccessOnly(deps.config.verificationPolicy);
  return new Hono<AuthEnv>()
    .post('/groups/:groupId/attachments', auth, participates, uploadBodyLimit, async (c) => {
      const userId = c.get('user').id;
      const groupId = await memberGroupId(c, deps.db, userId);
      await uploads.consume(userId);
      const upload = await readUpload(c);
      return c.json(await storeGroupAttachment(deps, userId, groupId, upload), 201);
    })
    .post('/chat/:partnerId/attachments', auth, participates, uploadBodyLimit, async (c) => {
      const userId = c.get('user').id;
      const partnerId = readId(c, 'partnerId', userNotFound());
      if (partnerId === userId) throw new HttpError(400, REALTIME_ERRORS.selfMessage);
      if (!(await findUserById(deps.db, partnerId))) throw userNotFound();
      await uploads.consume(userId);
      const upload = await readUpload(c);
      return c.json(await storeDirectAttachment(deps, userId, partnerId, upload), 201);
    })
    .post('/files/sign', auth, async (c) => {
      const userId = c.get('user').id;
      await signs.consume(userId);
      const { keys } = await readBody(c, signFilesBodySchema);
      const allowed = await visibleFiles(deps.db, userId, [...new Set(keys)]);
      const urls: Record<string, string> = {};
      for (const file of allowed) {
        const headers = fileHeaders(file);
        urls[file.key] = await deps.storage.signedUrl(file.key, SIGNED_FILE_URL_TTL_SECONDS, {
          contentType: headers['Content-Type'],
          contentDisposition: headers['Content-Disposition'],
          cacheControl: headers['Cache-Control'],
        });
      }
      return c.json({ urls });
    });
}
