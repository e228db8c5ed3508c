import fs from 'node:fs';
import path from 'node:path';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminDocumentUrlResponseSchema,
  directMessageSchema,
  fileKeyFromUrl,
  type User,
} from '@campus/protocol';
import { loadConfig, type S3StorageConfig } from '../src/config';
import { StartupRefused } from '../src/lib/mail/mail-policy';
import { createStorage, newDocumentKey, newFileKey, openStorage } from '../src/lib/storage';
import { S3Storage } from '../src/lib/storage/s3-storage';
import { createS3Client } from '../src/lib/storage/s3-storage';
import { avatarKey } from '../src/modules/profile';
import { addStudent, upload } from './chat-rest-helpers';
import { startLocalS3, type LocalS3 } from './support/s3rver';
import { startTestServer, type TestServer } from './support/test-server';
import { PDF_BYTES, createAccount, uploadDocument } from './verification-helpers';

// A real 1×1 PNG.
const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

const BUCKET = 'campus-test';
let local: LocalS3;
let dir: string;
let s3: S3StorageConfig;
let client: S3Client;

beforeAll(async () => {
  local = await startLocalS3(BUCKET);
  dir = local.dir;
  s3 = local.s3;
  client = createS3Client(s3);
});
afterAll(async () => {
  client?.destroy();
  await local?.close();
});

const objectExists = async (key: string) =>
  client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
    () => true,
    (error: { $metadata?: { httpStatusCode?: number } }) => {
      if (error.$metadata?.httpStatusCode === 404) return false;
      throw error;
    },
  );

describe('S3 configuration', () => {
  it('defaults to local storage and validates the S3 variables with clear errors', () => {
    expect(loadConfig({}).storage).toEqual({ driver: 'local' });
    expect(() => loadConfig({ STORAGE: 'disk' })).toThrow('STORAGE must be local or s3');
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow('S3_BUCKET');
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'Bad_Name' })).toThrow('S3_BUCKET must be');
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'ftp://x' })).toThrow(
      'S3_ENDPOINT',
    );
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'only-one' })).toThrow(
      'S3_SECRET_ACCESS_KEY',
    );
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(
      'S3_FORCE_PATH_STYLE',
    );
    // AWS itself: region default, virtual-hosted addressing, the SDK's default credential chain.
    expect(loadConfig({ STORAGE: 's3', S3_BUCKET: 'b-1' }).storage).toEqual({
      driver: 's3',
      bucket: 'b-1',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
    });
    expect(s3).toMatchObject({ forcePathStyle: true, credentials: { accessKeyId: 'S3RVER' } });
  });
});

describe('S3 storage driver', () => {
  const storage = () => createStorage({ dataDir: dir, storage: s3 }, Date.now);

  it('puts, streams back, and deletes objects; refuses keys that are not ours', async () => {
    const store = await storage();
    expect(store).toBeInstanceOf(S3Storage);
    expect(store.verify).toBeUndefined();
    const key = newFileKey();
    // 1 MiB of varied bytes, read back chunk by chunk from the stream.
    const bytes = Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 31) % 251);
    await store.put(key, bytes, 'application/pdf');
    expect(await objectExists(key)).toBe(true);
    const file = await store.get(key);
    expect(file?.size).toBe(bytes.length);
    const reader = file!.body.getReader();
    const chunks: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(Buffer.concat(chunks).equals(Buffer.from(bytes))).toBe(true);

    // Document keys have a folder; they work the same.
    const doc = newDocumentKey('00000000-0000-4000-8000-000000000001');
    await store.put(doc, PDF_BYTES, 'application/pdf');
    expect((await store.get(doc))?.size).toBe(PDF_BYTES.length);

    await store.delete(key);
    await store.delete(doc);
    expect(await store.get(key)).toBeNull();
    expect(await objectExists(doc)).toBe(false);
    // Deleting what is gone is fine, as on disk.
    await expect(store.delete(key)).resolves.toBeUndefined();
    await expect(store.put('../evil', Uint8Array.from([1]), 'x')).rejects.toThrow('invalid storage key');
    await expect(store.get('documents/../x')).rejects.toThrow('invalid storage key');
  });

  it('hands out presigned GET URLs that answer with the given headers and expire', async () => {
    const store = await storage();
    const key = newFileKey();
    await store.put(key, PNG, 'image/png');
    const overrides = {
      contentType: 'text/plain; charset=utf-8',
      contentDisposition: 'attachment; filename="notes.txt"',
      cacheControl: 'private, max-age=3600',
    };
    const url = await store.signedUrl(key, 60, overrides);
    expect(url.startsWith(`${s3.endpoint}/${BUCKET}/${key}?`)).toBe(true);
    expect(url).toContain('X-Amz-Expires=60');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(PNG))).toBe(true);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="notes.txt"');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');

    // s3rver does not check SigV4 signatures themselves (real S3 does), only the key id and the expiry:
    // a URL naming an unknown key id is refused. The stored type answers without overrides.
    const unknownKey = url.replace(/X-Amz-Credential=S3RVER/, 'X-Amz-Credential=NOBODY');
    expect(unknownKey).not.toBe(url);
    expect((await fetch(unknownKey)).status).toBe(403);
    const plain = await fetch(await store.signedUrl(key, 60));
    expect(plain.headers.get('content-type')).toBe('image/png');
    await plain.arrayBuffer();

    // Expired after its second. X-Amz-Date holds whole seconds, so a one-second URL may already be
    // expired when it is first used; the check is only that it is refused once its second is over.
    const short = await store.signedUrl(key, 1, overrides);
    expect(short).toContain('X-Amz-Expires=1');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const expired = await fetch(short);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
  });

  it('refuses to start when the bucket does not answer, and says what to check', async () => {
    await expect(openStorage({ dataDir: dir, storage: s3 }, Date.now)).resolves.toBeInstanceOf(S3Storage);
    const missing = openStorage({ dataDir: dir, storage: { ...s3, bucket: 'no-such-bucket' } }, Date.now);
    await expect(missing).rejects.toBeInstanceOf(StartupRefused);
    await expect(missing).rejects.toThrow(
      /bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+ is not reachable/,
    );
    const wrongKey = openStorage(
      {
        dataDir: dir,
        storage: { ...s3, credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'wrong' } },
      },
      Date.now,
    );
    await expect(wrongKey).rejects.toThrow(/not reachable .*check S3_BUCKET/);
  });
});

describe('the server with STORAGE=s3', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { storage: s3 } });
  });
  afterAll(() => server?.close());

  it('stores a chat attachment in the bucket and signs a presigned download for members', async () => {
    const alex = await addStudent(server, 'Alex', 'Rivera');
    const priya = await addStudent(server, 'Priya', 'Sharma');
    const res = await upload(server, `/api/chat/${priya.id}/attachments`, alex.token, {
      bytes: PNG,
      name: 'pic.png',
      type: 'image/png',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const key = fileKeyFromUrl(directMessageSchema.parse(res.body).attachmentUrl)!;
    expect(await objectExists(key)).toBe(true);
    expect(fs.existsSync(path.join(server.dataDir, 'uploads', key.slice(0, 2), key))).toBe(false);

    const text = new TextEncoder().encode('lecture notes, café');
    const file = await upload(server, `/api/chat/${priya.id}/attachments`, alex.token, {
      bytes: text,
      name: 'notes é.txt',
    });
    expect(file.status, JSON.stringify(file.body)).toBe(201);
    const textKey = fileKeyFromUrl(directMessageSchema.parse(file.body).attachmentUrl)!;

    const signed = await server.post('/api/files/sign', { keys: [key, textKey] }, priya.token);
    expect(signed.status).toBe(200);
    const urls = signed.body.urls as Record<string, string>;
    expect(urls[key]!.startsWith(`${s3.endpoint}/${BUCKET}/${key}?`)).toBe(true);
    const image = await fetch(urls[key]!);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(Buffer.from(PNG))).toBe(true);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toBe('inline');
    const notes = await fetch(urls[textKey]!);
    expect(new TextDecoder().decode(await notes.arrayBuffer())).toBe('lecture notes, café');
    expect(notes.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(notes.headers.get('content-disposition')).toBe(
      `attachment; filename="notes _.txt"; filename*=UTF-8''notes%20%C3%A9.txt`,
    );

    // Not a member: no URL. And this server's own /files route serves no S3 key.
    const outsider = await addStudent(server, 'Olly', 'Outsider');
    expect((await server.post('/api/files/sign', { keys: [key] }, outsider.token)).body).toEqual({
      urls: {},
    });
    expect((await fetch(`${server.url}/files/${key}?exp=9999999999&sig=${'0'.repeat(64)}`)).status).toBe(404);
    // The pages may load images and frames from the bucket (CSP).
    const csp = (await fetch(`${server.url}/healthz`)).headers.get('content-security-policy') ?? '';
    const origin = new URL(s3.endpoint!).origin;
    expect(csp).toContain(`img-src 'self' blob: data: ${origin}`);
    expect(csp).toContain(`frame-src 'self' ${origin}`);
  });

  it("takes a student ID through the server's signed PUT into the bucket; the admin views it presigned", async () => {
    const student = await createAccount(server, 'Kim');
    const admin = await createAccount(server, 'Ada', 'admin');
    const upload = await uploadDocument(server, student.token, PDF_BYTES, 'application/pdf', {
      manual: true,
    });
    // The PUT went to this server (it checked the bytes), which stored them in the bucket.
    expect(upload.url.startsWith('/api/upload/document/put/')).toBe(true);
    expect(await objectExists(upload.key)).toBe(true);
    expect(fs.existsSync(path.join(server.dataDir, 'uploads', ...upload.key.split('/')))).toBe(false);

    const res = await server.get(`/api/upload/admin/document-url?userId=${student.id}`, admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { url, contentType } = adminDocumentUrlResponseSchema.parse(res.body);
    expect(contentType).toBe('application/pdf');
    expect(url.startsWith(`${s3.endpoint}/${BUCKET}/${upload.key}?`)).toBe(true);
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(PDF_BYTES))).toBe(true);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe('inline');
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    // The local driver's document route has nothing to serve.
    const local = `/files/${upload.key}?exp=9999999999&sig=${'0'.repeat(64)}`;
    expect((await fetch(server.url + local)).status).toBe(404);
  });

  it('keeps profile pictures in the bucket and streams them from the avatar route', async () => {
    const me = await addStudent(server, 'Asha', 'Rao');
    const form = new FormData();
    form.append('picture', new Blob([PNG], { type: 'image/png' }), 'me.png');
    const put = await fetch(`${server.url}/api/users/profile/picture`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${me.token}` },
      body: form,
    });
    expect(put.status).toBe(200);
    const user = (await put.json()) as User;
    const key = avatarKey(
      server.deps.secret,
      me.id,
      new URL(user.profilePictureUrl!, server.url).searchParams.get('v')!,
    );
    expect(await objectExists(key)).toBe(true);
    const avatar = await fetch(server.url + user.profilePictureUrl!);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await avatar.arrayBuffer());
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(avatar.headers.get('content-length')).toBe(String(bytes.length));

    expect((await server.call('DELETE', '/api/users/profile/picture', undefined, me.token)).status).toBe(200);
    expect(await objectExists(key)).toBe(false);
  });
});
