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
 * How an attachment is served: images inline, everything else as a download under its name. The same
 * headers go into an S3 presigned URL (`response-content-*`), where nosniff cannot be set: the stored type
 * was decided from the bytes, and markup is never accepted (sniff.ts).
 */
export function fileHeaders(record: { content_type: string; file_name: string }) {
  const image = record.content_type.startsWith('image/');
  return {
    'Content-Type': record.content_type,
    'Content-Disposition': image ? 'inline' : attachmentDisposition(record.file_name),
    'Cache-Control': 'private, max-age=3600',
  };
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
    const headers = fileHeaders(record);
    return c.body(file.body, 200, {
      'Content-Type': headers['Content-Type'],
      'Content-Length': String(file.size),
      'Content-Disposition': headers['Content-Disposition'],
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': headers['Cache-Control'],
    });
  });
}
