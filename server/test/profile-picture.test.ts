import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE, PROFILE_MSG, type User } from '@campus/protocol';
import { PROFILE_PICTURE_RATE, avatarKey } from '../src/modules/profile';
import { startTestServer, type TestServer } from './support/test-server';
import { addStudent, type Student } from './chat-rest-helpers';

let server: TestServer;
let me: Student;
let other: Student;

async function putPicture(body: Uint8Array | FormData, token: string, type = 'image/png') {
  const res = await fetch(`${server.url}/api/users/profile/picture`, {
    method: 'PUT',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body instanceof FormData ? {} : { 'content-type': type }),
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
}

/** A 900×600 PNG carrying EXIF (camera make and a GPS-like comment). */
async function photoWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .withExif({ IFD0: { Make: 'SecretCam', ImageDescription: 'home address 221B' } })
    .png()
    .toBuffer();
}

beforeAll(async () => {
  server = await startTestServer();
  me = await addStudent(server, 'Asha', 'Rao');
  other = await addStudent(server, 'Ben', 'Other');
});
afterAll(() => server.close());

/** The storage key of the picture a profile URL names. */
const keyOf = (userId: string, url: string) =>
  avatarKey(server.deps.secret, userId, new URL(url, server.url).searchParams.get('v')!);

describe('PUT /api/users/profile/picture', () => {
  it('needs a signed-in user', async () => {
    expect((await putPicture(new Uint8Array([1]), 'nobody-token-123456')).status).toBe(401);
  });

  it('refuses more than 2 MB with the spec message', async () => {
    const big = new Uint8Array(PROFILE.maxPictureBytes + 1);
    big.set(await photoWithExif());
    const res = await putPicture(big, me.token);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: PROFILE_MSG.pictureTooLarge });
    // Far above the limit too: the body is not read whole.
    const huge = await putPicture(new Uint8Array(PROFILE.maxPictureBytes * 3), me.token);
    expect(huge).toEqual({ status: 413, body: { error: PROFILE_MSG.pictureTooLarge } });
  });

  it('refuses what is not an image, whatever its name or declared type', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n');
    const text = new TextEncoder().encode('just some text, named photo.png');
    for (const bytes of [pdf, text]) {
      const res = await putPicture(bytes, me.token, 'image/png');
      expect(res).toEqual({ status: 415, body: { error: PROFILE_MSG.pictureType } });
      const form = new FormData();
      form.append('picture', new Blob([bytes], { type: 'image/png' }), 'photo.png');
      expect(await putPicture(form, me.token)).toEqual({
        status: 415,
        body: { error: PROFILE_MSG.pictureType },
      });
    }
    // PNG magic with garbage after it: sharp cannot decode it.
    const broken = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    expect((await putPicture(broken, me.token)).status).toBe(415);
    expect((await server.get('/api/auth/me', me.token)).body).toMatchObject({ profilePictureUrl: null });
  });

  it('stores a PNG as a 512×512 WebP without metadata, under a key of the user, and serves it', async () => {
    const png = await photoWithExif();
    expect((await sharp(png).metadata()).exif).toBeDefined();
    const res = await putPicture(png, me.token, 'application/octet-stream');
    expect(res.status).toBe(200);
    const user = res.body as unknown as User;
    expect(user.profilePictureUrl).toMatch(new RegExp(`^/files/avatars/${me.id}\\?v=[0-9a-f]{16}$`));
    expect((await server.get('/api/auth/me', me.token)).body).toEqual(user);

    // Stored through the storage interface, not as a data URL in the row.
    const key = keyOf(me.id, user.profilePictureUrl!);
    const stored = await server.deps.storage.get(key);
    expect(stored).not.toBeNull();
    expect(fs.existsSync(path.join(server.dataDir, 'uploads', key.slice(0, 2), key))).toBe(true);

    const served = await fetch(server.url + user.profilePictureUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(served.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 512, height: 512 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(bytes.includes(Buffer.from('SecretCam'))).toBe(false);
  });

  it('a new picture changes the URL; the old URL is no longer cached for long', async () => {
    const first = ((await server.get('/api/auth/me', me.token)).body as unknown as User).profilePictureUrl!;
    const form = new FormData();
    const jpeg = await sharp({ create: { width: 300, height: 800, channels: 3, background: '#0a0' } })
      .jpeg()
      .toBuffer();
    form.append('picture', new Blob([jpeg]), 'me.jpg');
    const res = await putPicture(form, me.token);
    expect(res.status).toBe(200);
    const second = (res.body as unknown as User).profilePictureUrl!;
    expect(second).not.toBe(first);
    const old = await fetch(server.url + first);
    expect(old.headers.get('cache-control')).toBe('no-cache');
    await old.arrayBuffer();
    // The replaced picture's file is gone.
    expect(await server.deps.storage.get(keyOf(me.id, first))).toBeNull();
  });

  it('two uploads at once: both saved, and the URL that stays names the bytes served', async () => {
    const racer = await addStudent(server, 'Ray', 'Cer');
    const colours = ['#a00', '#00a', '#0a0', '#aa0'];
    const images = await Promise.all(
      colours.map((background) =>
        sharp({ create: { width: 64, height: 64, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    const answers = await Promise.all(images.map((png) => putPicture(png, racer.token)));
    expect(answers.map((a) => a.status)).toEqual(colours.map(() => 200));
    const url = ((await server.get('/api/auth/me', racer.token)).body as unknown as User).profilePictureUrl!;
    const served = await fetch(server.url + url);
    expect(served.headers.get('cache-control')).toContain('immutable');
    const bytes = Buffer.from(await served.arrayBuffer());
    // The version in the URL is the hash of the content: cached forever, it must be those bytes.
    expect(createHash('sha256').update(bytes).digest('hex').slice(0, 16)).toBe(
      new URL(url, server.url).searchParams.get('v'),
    );
    // Only the saved version's file is left.
    const left = await Promise.all(
      answers.map(async (a) =>
        server.deps.storage.get(keyOf(racer.id, (a.body as unknown as User).profilePictureUrl!)),
      ),
    );
    expect(
      new Set(
        answers.filter((_, i) => left[i] !== null).map((a) => (a.body as unknown as User).profilePictureUrl),
      ),
    ).toEqual(new Set([url]));
  });

  it('a picture stored before versions had keys is still served, and removed with the next change', async () => {
    const early = await addStudent(server, 'Ea', 'Rly');
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#555' } })
      .png()
      .toBuffer();
    const legacy = avatarKey(server.deps.secret, early.id);
    await server.deps.storage.put(legacy, png, 'image/webp');
    await server.deps.db
      .updateTable('users')
      .set({ profile_picture_url: `/files/avatars/${early.id}?v=0123456789abcdef` })
      .where('id', '=', early.id)
      .execute();
    const served = await fetch(`${server.url}/files/avatars/${early.id}?v=0123456789abcdef`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
    expect((await putPicture(png, early.token)).status).toBe(200);
    expect(await server.deps.storage.get(legacy)).toBeNull();
  });

  it("leaves other users' pictures alone, and there is no avatar route for a user without a picture", async () => {
    expect((await server.get('/api/auth/me', other.token)).body).toMatchObject({ profilePictureUrl: null });
    expect((await fetch(`${server.url}/files/avatars/${other.id}?v=x`)).status).toBe(404);
    expect((await fetch(`${server.url}/files/avatars/no-such-user`)).status).toBe(404);
  });

  it('DELETE removes the picture and its file', async () => {
    const url = ((await server.get('/api/auth/me', me.token)).body as unknown as User).profilePictureUrl!;
    const res = await server.call('DELETE', '/api/users/profile/picture', undefined, me.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ profilePictureUrl: null });
    expect(await server.deps.storage.get(keyOf(me.id, url))).toBeNull();
    expect((await fetch(`${server.url}/files/avatars/${me.id}`)).status).toBe(404);
  });

  it('is rate-limited per user', async () => {
    const busy = await addStudent(server, 'Busy', 'Bee');
    const tiny = new TextEncoder().encode('not an image');
    for (let i = 0; i < PROFILE_PICTURE_RATE.limit; i++) await putPicture(tiny, busy.token);
    expect((await putPicture(tiny, busy.token)).status).toBe(429);
    expect((await putPicture(tiny, other.token)).status).toBe(415);
  });
});
