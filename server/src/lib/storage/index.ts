import path from 'node:path';
import type { Config, S3StorageConfig, StorageConfig } from '../../config';
import { StartupRefused } from '../mail/mail-policy';
import { makePrivateDir } from '../private-files';
import { loadOrCreateSecret } from '../secret';
import { LocalStorage } from './local-storage';
import { s3DownloadOrigin } from './s3-origin';
import type { Storage } from './storage';
import { createUrlSigner } from './url-signer';

export type { Storage, StoredFile, SignedUrlOptions } from './storage';
export type { SignatureCheck } from './url-signer';
export { newFileKey, newDocumentKey, DOCUMENT_KEY_PATTERN } from './storage';
export { LocalStorage } from './local-storage';

/** The origin of download URLs when they are not this server's (STORAGE=s3), for the CSP. */
export function storageOrigin(storage: StorageConfig): string | undefined {
  return storage.driver === 's3' ? s3DownloadOrigin(storage) : undefined;
}

/**
 * The storage driver for this installation: STORAGE=local (DATA_DIR/uploads, the default) or s3. The S3
 * driver and its SDK are imported only when chosen (server/build.mjs puts them in a chunk of their own).
 */
export async function createStorage(
  config: Pick<Config, 'dataDir' | 'storage'>,
  now: () => number,
): Promise<Storage> {
  if (config.storage.driver === 's3') return s3Storage(config.storage);
  const signer = createUrlSigner(loadOrCreateSecret(config.dataDir, 'files'), now);
  const root = path.join(config.dataDir, 'uploads');
  // Made (or tightened) at start to 0700, like DATA_DIR and keys/: files of direct chats are not for other users.
  makePrivateDir(root);
  return new LocalStorage(root, signer);
}

async function s3Storage(config: S3StorageConfig) {
  const { createS3Client, S3Storage } = await import('./s3-storage');
  return new S3Storage(createS3Client(config), config.bucket);
}

/**
 * The server's storage, checked at start: with STORAGE=s3 the bucket must answer (HeadBucket), or the server
 * refuses to start and says what to fix rather than failing on the first upload.
 */
export async function openStorage(
  config: Pick<Config, 'dataDir' | 'storage'>,
  now: () => number,
): Promise<Storage> {
  if (config.storage.driver !== 's3') return createStorage(config, now);
  const storage = await s3Storage(config.storage);
  const where = config.storage.endpoint ?? `AWS region ${config.storage.region}`;
  try {
    await storage.checkReachable();
  } catch (error) {
    const reason =
      error instanceof Error
        ? [error.name, error.message].filter((part, i, all) => part && all.indexOf(part) === i).join(': ')
        : String(error);
    throw new StartupRefused(
      `STORAGE=s3: the bucket ${config.storage.bucket} at ${where} is not reachable (${reason}); ` +
        'check S3_BUCKET, S3_ENDPOINT, S3_REGION and the credentials',
    );
  }
  return storage;
}
