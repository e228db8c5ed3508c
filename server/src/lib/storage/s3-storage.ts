import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { FILE_KEY_PATTERN } from '@campus/protocol';
import type { S3StorageConfig } from '../../config';
import { DOCUMENT_KEY_PATTERN, type SignedUrlOptions, type Storage, type StoredFile } from './storage';

/** The same keys as the local driver: only ours, so nothing a user chose ever names an object. */
function checkKey(key: string): string {
  if (!FILE_KEY_PATTERN.test(key) && !DOCUMENT_KEY_PATTERN.test(key)) throw new Error('invalid storage key');
  return key;
}

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

export function createS3Client(config: S3StorageConfig): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    // Absent: the SDK's default chain (environment, shared files, instance or task role).
    credentials: config.credentials,
    // Checksums only where S3 requires them: S3-compatible stores do not all understand the newer
    // default (CRC32 headers and aws-chunked trailers); the bodies are small and sent whole.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * STORAGE=s3: objects named by our keys in one bucket (documents under `documents/<user id>/`). The server
 * still receives every upload itself (it sniffs the type and counts the size) and then puts it here; only
 * downloads go to the bucket directly, through short-lived presigned GET URLs. There is no `verify`:
 * this server's /files routes answer 404 for these URLs' keys.
 */
export class S3Storage implements Storage {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: checkKey(key),
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: contentType,
      }),
    );
  }

  async get(key: string): Promise<StoredFile | null> {
    let answer;
    try {
      answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
    if (!answer.Body) return null;
    return { body: answer.Body.transformToWebStream(), size: answer.ContentLength ?? 0 };
  }

  async delete(key: string): Promise<void> {
    // S3 answers a missing key with success, as the local driver's `rm --force` does.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
  }

  signedUrl(key: string, ttlSeconds: number, options: SignedUrlOptions = {}): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: checkKey(key),
      ResponseContentType: options.contentType,
      ResponseContentDisposition: options.contentDisposition,
      ResponseCacheControl: options.cacheControl,
    });
    return getSignedUrl(this.client, command, { expiresIn: ttlSeconds });
  }

  /** At start: the bucket exists and these credentials may use it. */
  async checkReachable(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }
}
