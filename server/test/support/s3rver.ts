import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { loadConfig, type S3StorageConfig } from '../../src/config';
import { createS3Client } from '../../src/lib/storage/s3-storage';

/** s3rver has no types: only what these tests use. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
}) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export interface LocalS3 {
  /** STORAGE=s3 pointing at this s3rver, read through loadConfig. */
  s3: S3StorageConfig;
  /** The temporary directory s3rver keeps its objects in (removed by close()). */
  dir: string;
  close(): Promise<void>;
}

/**
 * An S3-compatible server (s3rver) on a free loopback port, with `bucket` already made: a server checks its
 * bucket at start (HeadBucket). The configuration goes through loadConfig, as an operator would set it
 * (s3rver's fixed credentials).
 */
export async function startLocalS3(bucket: string, dirPrefix = 'campus-s3rver-'): Promise<LocalS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), dirPrefix));
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true });
  const close = async () => {
    await s3rver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const address = await s3rver.run();
    const storage = loadConfig({
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    }).storage;
    if (storage.driver !== 's3') throw new Error('STORAGE=s3 was not read');
    const client = createS3Client(storage);
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    } finally {
      client.destroy();
    }
    return { s3: storage, dir, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
