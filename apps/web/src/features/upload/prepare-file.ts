import { UPLOAD, UPLOAD_MSG, isDocumentType } from '@campus/protocol';
import { compressImage, type ImageDecoder } from './compress';

export type Prepared = { ok: true; file: File } | { ok: false; error: string };

/**
 * Section 5's file checks around the compression: the type first (a wrong type is refused whatever its
 * size), then images are compressed, then the 2 MB limit applies to what would be uploaded. A picture the
 * browser cannot decode is kept as it is: the size check and the text recognition then judge it.
 */
export async function prepareFile(file: File, decode: ImageDecoder): Promise<Prepared> {
  if (!isDocumentType(file.type)) return { ok: false, error: UPLOAD_MSG.fileType };
  let ready = file;
  if (file.type !== 'application/pdf') {
    try {
      ready = await compressImage(file, decode);
    } catch {
      ready = file;
    }
  }
  if (ready.size > UPLOAD.maxBytes) return { ok: false, error: UPLOAD_MSG.fileTooLarge };
  return { ok: true, file: ready };
}

export function isPdf(file: File): boolean {
  return file.type === 'application/pdf';
}

/** '1.4 MB', '320 KB': the file card's size. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
