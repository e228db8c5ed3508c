import { Hono } from 'hono';
import { CHAT_SERVER_MSG, SERVER_MSG } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import { DOCUMENT_KEY_PATTERN } from '../../lib/storage';
import { documentByKey } from './repo';

/**
 * `GET /files/documents/<user>/<random>?exp&sig`: a student's document, for the admin's viewer. Only a
 * fresh signature opens it (the admin's document-url answer, minutes long): there is no unsigned way to a
 * document, and /files/:key of the attachments never serves one (its keys have no `/`). Shown inline (the
 * browser's image or PDF viewer), never cached.
 */
export function documentFileRoutes(deps: AppDeps) {
  return new Hono().get('/:owner/:file', async (c) => {
    const key = `documents/${c.req.param('owner')}/${c.req.param('file')}`;
    const verify = deps.storage.verify?.bind(deps.storage);
    if (!DOCUMENT_KEY_PATTERN.test(key) || !verify) throw new HttpError(404, SERVER_MSG.notFound);
    const check = verify(key, c.req.query('exp'), c.req.query('sig'));
    if (check === 'expired') throw new HttpError(403, CHAT_SERVER_MSG.linkExpired);
    if (check !== 'ok') throw new HttpError(403, SERVER_MSG.forbidden);
    const doc = await deps.transactor.read((tx) => documentByKey(tx, key));
    const file = doc && (await deps.storage.get(key));
    if (!doc || !file) throw new HttpError(404, SERVER_MSG.notFound);
    return c.body(file.body, 200, {
      'Content-Type': doc.content_type,
      'Content-Length': String(file.size),
      'Content-Disposition': 'inline',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    });
  });
}
