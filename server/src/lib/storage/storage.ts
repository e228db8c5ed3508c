import { randomBytes } from 'node:crypto';
import type { SignatureCheck } from './url-signer';

/** A stored file opened for reading. */
export interface StoredFile {
  body: ReadableStream<Uint8Array>;
  size: number;
}

/**
 * How a download answers, for drivers whose URLs are not served by this server (S3 presigned GETs carry
 * them as `response-content-type` etc.). The local driver's /files routes decide these from the database.
 */
export interface SignedUrlOptions {
  contentType?: string;
  contentDisposition?: string;
  cacheControl?: string;
}

/**
 * Where uploads live (DESIGN.md, Files). The local driver keeps them under DATA_DIR/uploads and signs
 * its own download URLs (server-relative, `/files/…`); the S3 driver (s3-storage.ts) answers `signedUrl`
 * with an absolute presigned GET URL of the bucket. Uploads always reach the server first (it sniffs the
 * type and counts the size) and are then `put`: no client ever writes to the store directly.
 * Keys are always ours (`newFileKey`), never a name or path a user chose.
 */
export interface Storage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** null when no such file. */
  get(key: string): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
  /** A download URL valid for `ttlSeconds`: server-relative (local) or absolute (S3). */
  signedUrl(key: string, ttlSeconds: number, options?: SignedUrlOptions): Promise<string>;
  /**
   * Drivers whose URLs point at this server's /files route check them here; a driver whose URLs go
   * elsewhere (S3 presigned) leaves it out and /files answers 404.
   */
  verify?(key: string, exp: string | undefined, sig: string | undefined): SignatureCheck;
}

export function newFileKey(): string {
  return randomBytes(16).toString('hex');
}

/**
 * A student-ID document's key (issue 11): `documents/<user id>/<32 hex>`, tied to its owner and never a name
 * the student chose. Such files are private: served only through the verification module's signed route.
 */
export const DOCUMENT_KEY_PATTERN = /^documents\/[0-9a-f-]{36}\/[0-9a-f]{32}$/;

export function newDocumentKey(userId: string): string {
  return `documents/${userId}/${randomBytes(16).toString('hex')}`;
}
