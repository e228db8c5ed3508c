import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { UPLOAD, UPLOAD_MSG, ocrResultSchema } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readFileField } from '../../lib/http/multipart-file';
import { OcrBusyError, OcrInputError, OcrTimeoutError } from '../../lib/ocr';
import { sniffContent } from '../../lib/storage/sniff';

const HOUR = 60 * 60_000;
/**
 * Recognitions per user: each costs about a second of a core. Twenty an hour is far above a student
 * retrying a blurred photo (the page goes to manual review after one failure), and low enough that one
 * account cannot keep the pool busy.
 */
export const OCR_RATE = { limit: 20, windowMs: HOUR };

/** The upload is exempt from the 64 KB JSON limit of /api/* (app.ts); it has its own below. */
export const OCR_UPLOAD_PATH = /^\/api\/ocr\/upload\/?$/;

/** Room for a multipart envelope around a file of the maximum size. */
const MULTIPART_OVERHEAD = 64 * 1024;

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

const failed = (detail: string) => `${UPLOAD_MSG.ocrFailedPrefix} ${detail}`;

const uploadBodyLimit = bodyLimit({
  maxSize: UPLOAD.maxBytes + MULTIPART_OVERHEAD,
  // The rest of the body is never read: close the connection rather than leave it unusable.
  onError: (c) => c.json({ error: UPLOAD_MSG.fileTooLarge }, 413, { Connection: 'close' }),
});

/** The multipart `file` field's bytes (the spec's call), or a 400/413. */
async function readFile(c: Context): Promise<{ bytes: Uint8Array; name: string }> {
  const file = await readFileField(c, {
    field: 'file',
    maxBytes: UPLOAD.maxBytes,
    missing: UPLOAD_MSG.noFile,
    tooLarge: UPLOAD_MSG.fileTooLarge,
  });
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
}

/**
 * `POST /api/ocr/upload`: the spec's text-recognition service (`POST {text-recognition service}/upload`,
 * multipart `file` → nama, nim, kampus, jurusan), served by this server to signed-in users. The file is
 * judged by its bytes: a JPEG, PNG or WebP is read; a PDF is not (422: it goes to manual review); anything
 * else is refused (415). Nothing is stored: the document itself goes through the signed upload.
 */
export function ocrRoutes(deps: AppDeps) {
  const limiter = deps.rates.limiter('ocr.read', OCR_RATE);

  return new Hono<AuthEnv>().use(requireUser(deps)).post('/upload', uploadBodyLimit, async (c) => {
    await limiter.consume(c.get('user').id);
    const { bytes, name } = await readFile(c);
    const type = sniffContent(bytes, name)?.contentType;
    if (type === 'application/pdf') throw new HttpError(422, UPLOAD_MSG.pdfManual);
    if (!type || !IMAGE_TYPES.has(type)) throw new HttpError(415, UPLOAD_MSG.fileType);
    try {
      return c.json(ocrResultSchema.parse(await deps.ocr.recognize(bytes)));
    } catch (error) {
      if (error instanceof OcrInputError) throw new HttpError(422, failed('The image could not be read.'));
      if (error instanceof OcrBusyError || error instanceof OcrTimeoutError)
        throw new HttpError(503, failed('The service is busy. Please try again in a minute.'), {
          retryAfter: 30,
        });
      deps.log.error({ err: error }, 'text recognition failed');
      throw new HttpError(500, failed('Please try again.'));
    }
  });
}
