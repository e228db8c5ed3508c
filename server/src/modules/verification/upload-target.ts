import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureCheck } from '../../lib/storage';

/**
 * Where a student PUTs their document: a URL that is itself the short-lived permission (no bearer token),
 * as an object store's presigned URL is. With either storage driver (STORAGE=local or s3) it points at this
 * server's PUT route, signed with HMAC-SHA256 over the method, key, content type and expiry: the server
 * must see the bytes (type by content, size while receiving) before they are stored, so a presigned PUT
 * straight to the bucket is never handed out. The route then `put`s the checked bytes into the storage.
 */
export interface DocumentUploadTarget {
  /** The `bucket` of the sign answer (the spec's field); submissions must name it. */
  readonly bucket: string;
  /** A URL to PUT the file to with exactly `contentType`, valid until `exp` (epoch seconds). */
  uploadUrl(key: string, contentType: string, exp: number): string;
}

/** The route the local driver's URLs point at: `…/put/<user id>/<random>` (the key without `documents/`). */
export const DOCUMENT_PUT_ROUTE = '/api/upload/document/put';
export const DOCUMENT_KEY_PREFIX = 'documents/';
export const LOCAL_BUCKET = 'local';

/** The request's content type as it is signed: the media type alone, lower case. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The local driver's target: it also checks the signatures of the PUTs it receives. */
export interface LocalUploadTarget extends DocumentUploadTarget {
  verify(
    key: string,
    contentType: string,
    exp: string | undefined,
    sig: string | undefined,
    nowMs: number,
  ): SignatureCheck;
}

export function localUploadTarget(secret: Buffer): LocalUploadTarget {
  // Its own label, so no other signature made with this secret (file links, codes) can pass for one of these.
  const mac = (key: string, contentType: string, exp: number) =>
    createHmac('sha256', secret).update(`document-put\nPUT\n${key}\n${contentType}\n${exp}`).digest();

  return {
    bucket: LOCAL_BUCKET,
    uploadUrl(key: string, contentType: string, exp: number): string {
      const sig = mac(key, contentType, exp).toString('hex');
      return `${DOCUMENT_PUT_ROUTE}/${key.slice(DOCUMENT_KEY_PREFIX.length)}?exp=${exp}&sig=${sig}`;
    },
    /** Checked before the expiry, so a forged URL learns nothing from the answer. */
    verify(key, contentType, expParam, sigParam, nowMs) {
      if (!expParam || !/^\d{1,12}$/.test(expParam) || !sigParam || !/^[0-9a-f]{64}$/.test(sigParam))
        return 'invalid';
      const exp = Number(expParam);
      if (!timingSafeEqual(Buffer.from(sigParam, 'hex'), mac(key, contentType, exp))) return 'invalid';
      return Math.floor(nowMs / 1000) > exp ? 'expired' : 'ok';
    },
  };
}
