import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_CONFIG_PATH, clientConfigSchema, isHttpOrigin } from '@campus/protocol';
import { loadConfig, type S3StorageConfig } from '../src/config';
import { clientConfigRoutes } from '../src/modules/client-config/routes';
import { startLocalS3, type LocalS3 } from './support/s3rver';
import { startTestServer, type TestServer } from './support/test-server';

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
  let local: LocalS3;
  let s3: S3StorageConfig;
  let server: TestServer;

  beforeAll(async () => {
    local = await startLocalS3(BUCKET, 'campus-client-config-s3-');
    s3 = local.s3;
    server = await startTestServer({ config: { storage: s3 } });
  });
  afterAll(async () => {
    await server?.close();
    await local?.close();
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
