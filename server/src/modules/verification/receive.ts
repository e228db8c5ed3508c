import { UPLOAD, UPLOAD_MSG, isDocumentType } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import { sniffContent } from '../../lib/storage/sniff';
import { claimIntent, intentOf, markUploaded, releaseIntent } from './repo';

/** image/* or pdf: a JPEG declared as PNG is still an image (stored as what it is). */
const family = (contentType: string) => (contentType === 'application/pdf' ? 'pdf' : 'image');

/**
 * The body of a signed PUT (the signature and expiry were checked by the route): the document's type is
 * decided by its bytes, which must be one of the accepted types and of the declared family (415
 * otherwise); then it is stored under its key, once. A link whose file is stored already, or whose intent
 * is gone (submitted or swept), answers 410: a signed upload URL is good for one file.
 */
export async function receiveUpload(
  deps: AppDeps,
  key: string,
  declaredType: string,
  bytes: Uint8Array,
): Promise<{ size: number; contentType: string }> {
  if (bytes.length === 0) throw new HttpError(400, UPLOAD_MSG.noFile);
  if (bytes.length > UPLOAD.maxBytes) throw new HttpError(413, UPLOAD_MSG.fileTooLarge);
  const sniffed = sniffContent(bytes, '')?.contentType;
  if (!sniffed || !isDocumentType(sniffed) || family(sniffed) !== family(declaredType))
    throw new HttpError(415, UPLOAD_MSG.fileType);

  const claimed = await deps.transactor.commit(async (tx) => {
    const intent = await intentOf(tx, key);
    return intent !== undefined && intent.content_type === declaredType && (await claimIntent(tx, key));
  });
  if (!claimed) throw new HttpError(410, UPLOAD_MSG.uploadExpired);
  try {
    await deps.storage.put(key, bytes, sniffed);
  } catch (error) {
    await deps.transactor.commit((tx) => releaseIntent(tx, key));
    throw error;
  }
  await deps.transactor.commit((tx) => markUploaded(tx, key, bytes.length, sniffed));
  return { size: bytes.length, contentType: sniffed };
}
