import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_CONFIG_PATH, clientConfigSchema, isHttpOrigin } from '@campus/protocol';
import { loadConfig, type S3StorageConfig } from '../src/config';
import { createS3Client } from '../src/lib/storage/s3-storage';
import { clientConfigRoutes } from '../src/modules/client-config/routes';
import { startTestServer, type TestServer } from './support/test-server';

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

const BUCKET = 'campus-client-config';

describe('GET /api/client-config with local storage', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('answers without a token: no file origins besides the server, cacheable for five minutes', async () => {
    const res = await server.get(CLIENT_CONFIG_PATH);
    expect(res.status).toBe(200);
    expect(clientConfigSchema.parse(res.body)).toEqual({ fileOrigins: [] });
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  });
});

describe('GET /api/client-config with STORAGE=s3', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-client-config-s3-'));
  let s3rver: S3rverInstance;
  let s3: S3StorageConfig;
  let server: TestServer;

  beforeAll(async () => {
    s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true });
    const address = await s3rver.run();
    const storage = loadConfig({
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    }).storage;
    if (storage.driver !== 's3') throw new Error('STORAGE=s3 was not read');
    s3 = storage;
    // The server checks the bucket at start (HeadBucket): it must exist.
    const client = createS3Client(s3);
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
    client.destroy();
    server = await startTestServer({ config: { storage: s3 } });
  });
  afterAll(async () => {
    await server?.close();
    await s3rver?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("names the bucket's origin (where presigned downloads point) without a token", async () => {
    const res = await server.get(CLIENT_CONFIG_PATH);
    expect(res.status).toBe(200);
    const origin = new URL(s3.endpoint!).origin;
    expect(clientConfigSchema.parse(res.body)).toEqual({ fileOrigins: [origin] });
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    // The same origin the web app's CSP already admits.
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`img-src 'self' blob: data: ${origin}`);
  });

  it("gives AWS's virtual-hosted origin for a bucket without S3_ENDPOINT", async () => {
    const config = loadConfig({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_REGION: 'eu-west-1' });
    const res = await clientConfigRoutes({ config }).request('/');
    const body = clientConfigSchema.parse(await res.json());
    expect(body).toEqual({ fileOrigins: ['https://b-1.s3.eu-west-1.amazonaws.com'] });
    expect(body.fileOrigins.every(isHttpOrigin)).toBe(true);
  });
});
