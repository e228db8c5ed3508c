import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  CHAT,
  CHAT_SERVER_MSG,
  attachmentFieldsSchema,
  fileNameError,
  stripNameControls,
} from '@campus/protocol';
import { HttpError } from '../../lib/http-error';
import { cleanFileName, sniffContent, type SniffedType } from '../../lib/storage/sniff';

/** Room for the multipart envelope and the `id` field around a file of the maximum size. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** Upload routes are exempt from the 64 KB JSON limit of /api/*; they get this one instead. */
export const UPLOAD_PATH = /^\/api\/(groups|chat)\/[^/]+\/attachments\/?$/;

/**
 * Counts bytes as the request streams in and stops at the limit, so a huge body is never buffered whole:
 * at most one maximum-size file plus its envelope is ever held in memory.
 */
export const uploadBodyLimit = bodyLimit({
  maxSize: CHAT.maxAttachmentBytes + MULTIPART_OVERHEAD,
  // The rest of the body is never read, so the connection cannot carry another request: close it, or the
  // client would reuse a socket the server is about to drop.
  onError: (c) => c.json({ error: CHAT_SERVER_MSG.attachmentTooLarge }, 413, { Connection: 'close' }),
});

export interface Upload {
  id: string;
  bytes: Uint8Array;
  fileName: string;
  type: SniffedType;
}

/**
 * The name to store and show: direction controls and blank fillers stripped (so 'a\u202Egpj.exe' cannot
 * pass as 'aexe.jpg'), then cleaned for headers and message content. Refused (400) when nothing visible is
 * left, and (415) for a page or script extension, judged on the name as sent and as it would be stored
 * (cleaning removes brackets and cuts long names, which could bring an extension to the end).
 */
function acceptedFileName(raw: string): string {
  const fileName = cleanFileName(stripNameControls(raw));
  const error = fileNameError(raw) ?? fileNameError(fileName);
  if (error === CHAT_SERVER_MSG.attachmentNameRequired) throw new HttpError(400, error);
  if (error) throw new HttpError(415, error);
  return fileName;
}

/**
 * Reads the multipart `attachment` file and `id` field: 400 missing or unnamed, 413 too large, 415 not a
 * type or a name we take.
 */
export async function readUpload(c: Context): Promise<Upload> {
  let form: Record<string, string | File>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw new HttpError(400, CHAT_SERVER_MSG.attachmentMissing);
  }
  const file = form.attachment;
  if (!(file instanceof File) || file.size === 0) throw new HttpError(400, CHAT_SERVER_MSG.attachmentMissing);
  const fields = attachmentFieldsSchema.safeParse({ id: form.id });
  if (!fields.success) throw new HttpError(400, fields.error.issues[0]?.message ?? 'Invalid request.');
  if (file.size > CHAT.maxAttachmentBytes) throw new HttpError(413, CHAT_SERVER_MSG.attachmentTooLarge);

  const fileName = acceptedFileName(file.name);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffContent(bytes, fileName);
  if (!type) throw new HttpError(415, CHAT_SERVER_MSG.attachmentType);
  return { id: fields.data.id, bytes, fileName, type };
}
