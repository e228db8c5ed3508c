import { Hono } from 'hono';
import { CHAT_SERVER_MSG, FILE_KEY_PATTERN, SERVER_MSG } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { HttpError } from '../../lib/http-error';
import { findAttachment } from './repo';

/** RFC 6266/5987: an ASCII fallback name plus the exact UTF-8 name. */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * GET /files/:key?exp&sig: the local storage driver's downloads. The signature is the authorization
 * (an <img> cannot send a bearer token); links expire. Images display inline, everything else downloads,
 * and nosniff keeps the browser to the type we decided from the bytes.
 */
export function fileRoutes(deps: AppDeps) {
  const notFound = () => new HttpError(404, SERVER_MSG.notFound);
  return new Hono().get('/:key', async (c) => {
    const key = c.req.param('key');
    const verify = deps.storage.verify?.bind(deps.storage);
    if (!FILE_KEY_PATTERN.test(key) || !verify) throw notFound();
    const check = verify(key, c.req.query('exp'), c.req.query('sig'));
    if (check === 'expired') throw new HttpError(403, CHAT_SERVER_MSG.linkExpired);
    if (check !== 'ok') throw new HttpError(403, SERVER_MSG.forbidden);

    const record = await findAttachment(deps.db, key);
    const file = record && (await deps.storage.get(key));
    if (!record || !file) throw notFound();
    const image = record.content_type.startsWith('image/');
    return c.body(file.body, 200, {
      'Content-Type': record.content_type,
      'Content-Length': String(file.size),
      'Content-Disposition': image ? 'inline' : attachmentDisposition(record.file_name),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, max-age=3600',
    });
  });
}
