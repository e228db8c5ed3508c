import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT,
  CHAT_SERVER_MSG,
  REALTIME_ERRORS,
  SERVER_MSG,
  directMessageSchema,
  fileKeyFromUrl,
  groupMessageSchema,
  groupSchema,
  type Group,
} from '@campus/protocol';
import { valueOf } from './support/sql';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { addStudent, upload, type Student } from './chat-rest-helpers';

const clock = testClock();
let server: TestServer;
let alex: Student;
let priya: Student;
let outsider: Student;
let group: Group;

// A real 1×1 PNG.
const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  alex = await addStudent(server, 'Alex', 'Rivera');
  priya = await addStudent(server, 'Priya', 'Sharma');
  outsider = await addStudent(server, 'Olly', 'Outsider');
  group = groupSchema.parse(
    (await server.post('/api/groups', { name: 'Lab', memberIds: [priya.id] }, alex.token)).body,
  );
});
afterAll(async () => {
  await server.close();
});

async function sign(token: string, keys: string[]) {
  return server.post('/api/files/sign', { keys }, token);
}

async function download(url: string) {
  const res = await fetch(server.url + url);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const groupUpload = `/api/groups/${'GROUP'}/attachments`;
const groupPath = () => groupUpload.replace('GROUP', group.id);

describe('group attachments', () => {
  it('stores a PNG as an image message and serves it back byte-identical through a signed URL', async () => {
    const res = await upload(server, groupPath(), alex.token, {
      bytes: PNG,
      name: 'pic.png',
      type: 'image/png',
    });
    expect(res.status).toBe(201);
    const message = groupMessageSchema.parse(res.body);
    expect(message).toMatchObject({ content: '[Image: pic.png]', attachmentType: 'image', group: group.id });
    const key = fileKeyFromUrl(message.attachmentUrl);
    expect(key).toMatch(/^[0-9a-f]{32}$/);

    // The message is in the history and the stable path alone does not open the file.
    const history = (await server.get(`/api/groups/${group.id}/messages`, priya.token)).body as unknown as {
      id: string;
    }[];
    expect(history[0]!.id).toBe(message.id);
    expect((await fetch(server.url + message.attachmentUrl!)).status).toBe(403);

    const signed = await sign(priya.token, [key!]);
    expect(signed.status).toBe(200);
    const url = (signed.body.urls as Record<string, string>)[key!]!;
    expect(url).toMatch(new RegExp(`^/files/${key}\\?exp=\\d+&sig=[0-9a-f]{64}$`));
    const { res: file, bytes } = await download(url);
    expect(file.status).toBe(200);
    expect(Buffer.from(bytes).equals(Buffer.from(PNG))).toBe(true);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    // The desktop renderer lives on another origin; the signature, not the origin, guards the file.
    expect(file.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(file.headers.get('content-disposition')).toBe('inline');
    expect(file.headers.get('cache-control')).toMatch(/^private/);

    // Tampered signature or key: refused.
    const tampered = url.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`);
    expect((await fetch(server.url + tampered)).status).toBe(403);
    const otherKey = url.replace(key!, 'f'.repeat(32));
    expect((await fetch(server.url + otherKey)).status).toBe(403);
    const laterExp = url.replace(/exp=(\d+)/, (_m, exp: string) => `exp=${Number(exp) + 1000}`);
    expect((await fetch(server.url + laterExp)).status).toBe(403);

    // Expired after its hour.
    clock.advance(3601 * 1000);
    const expired = await fetch(server.url + url);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error: string }).error).toBe(CHAT_SERVER_MSG.linkExpired);
  });

  it('a retried upload with the same id makes one message and one file, also when both race', async () => {
    const id = randomUUID();
    const first = await upload(server, groupPath(), alex.token, { bytes: PNG, name: 'again.png' }, id);
    const second = await upload(server, groupPath(), alex.token, { bytes: PNG, name: 'again.png' }, id);
    expect(first.status).toBe(201);
    expect(second.body).toEqual(first.body);
    const raceId = randomUUID();
    const racing = await Promise.all(
      [1, 2, 3].map(() => upload(server, groupPath(), alex.token, { bytes: PNG, name: 'race.png' }, raceId)),
    );
    expect(racing.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(racing.map((r) => JSON.stringify(r.body))).size).toBe(1);
    const count = (name: string) =>
      valueOf(server, 'SELECT count(*) FROM attachments WHERE file_name = ?', name);
    expect(await count('again.png')).toBe(1);
    expect(await count('race.png')).toBe(1);
    const uploads = path.join(server.dataDir, 'uploads');
    const files = fs.readdirSync(uploads, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    const rows = await valueOf<number>(server, 'SELECT count(*) FROM attachments');
    expect(files).toHaveLength(rows!);
  });

  it('refuses a non-member: upload, signing and reading', async () => {
    const res = await upload(server, groupPath(), outsider.token, { bytes: PNG, name: 'x.png' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(REALTIME_ERRORS.notGroupMember);
    const stored = await upload(server, groupPath(), priya.token, { bytes: PNG, name: 'mine.png' });
    const key = fileKeyFromUrl(groupMessageSchema.parse(stored.body).attachmentUrl)!;
    const signed = await sign(outsider.token, [key]);
    expect(signed.status).toBe(200);
    expect(signed.body.urls).toEqual({});
    expect((await sign(alex.token, [key])).body.urls).toHaveProperty(key);
  });

  it('judges the type by content: HTML named .png is refused 415, text is a file download', async () => {
    const html = new TextEncoder().encode('<!DOCTYPE html><script>alert(1)</script>');
    const refused = await upload(server, groupPath(), alex.token, {
      bytes: html,
      name: 'cat.png',
      type: 'image/png',
    });
    expect(refused.status).toBe(415);
    expect(refused.body.error).toBe(CHAT_SERVER_MSG.attachmentType);
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    expect((await upload(server, groupPath(), alex.token, { bytes: svg, name: 'a.svg' })).status).toBe(415);
    const binary = Uint8Array.from([0, 1, 2, 3, 0xff, 0xfe]);
    expect((await upload(server, groupPath(), alex.token, { bytes: binary, name: 'a.bin' })).status).toBe(
      415,
    );

    const notes = new TextEncoder().encode('Lecture notes — week 3\n');
    const ok = await upload(server, groupPath(), alex.token, { bytes: notes, name: 'notes é.txt' });
    expect(ok.status).toBe(201);
    const message = groupMessageSchema.parse(ok.body);
    expect(message).toMatchObject({ content: '[File: notes é.txt]', attachmentType: 'file' });
    const key = fileKeyFromUrl(message.attachmentUrl)!;
    const url = ((await sign(alex.token, [key])).body.urls as Record<string, string>)[key]!;
    const { res, bytes } = await download(url);
    expect(new TextDecoder().decode(bytes)).toBe('Lecture notes — week 3\n');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="notes _.txt"; filename*=UTF-8''notes%20%C3%A9.txt`,
    );
  });

  it(`refuses a file over ${CHAT.maxAttachmentLabel} with 413 and a missing file with 400`, async () => {
    const big = new Uint8Array(CHAT.maxAttachmentBytes + 1);
    big.set(PNG);
    const res = await upload(server, groupPath(), alex.token, { bytes: big, name: 'big.png' });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe(CHAT_SERVER_MSG.attachmentTooLarge);
    const huge = await upload(server, groupPath(), alex.token, {
      bytes: new Uint8Array(12 * 1024 * 1024),
      name: 'h',
    });
    expect(huge.status).toBe(413);
    const missing = await upload(server, groupPath(), alex.token, null);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe(CHAT_SERVER_MSG.attachmentMissing);
    const badId = await upload(server, groupPath(), alex.token, { bytes: PNG, name: 'a.png' }, 'not-a-uuid');
    expect(badId.status).toBe(400);
  });

  it('counts a body without Content-Length as it streams in and stops it past the limit', async () => {
    const chunk = new Uint8Array(1024 * 1024);
    let sentChunks = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sentChunks++ < 12) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const chunked = await fetch(server.url + groupPath(), {
      method: 'POST',
      headers: { authorization: `Bearer ${alex.token}`, 'content-type': 'multipart/form-data; boundary=x' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { error: string }).error).toBe(CHAT_SERVER_MSG.attachmentTooLarge);
  });
});

describe('direct attachments', () => {
  it('stores a file for the pair; only the two of them may sign it', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const res = await upload(server, `/api/chat/${priya.id}/attachments`, alex.token, {
      bytes: pdf,
      name: 'cv.pdf',
    });
    expect(res.status).toBe(201);
    const message = directMessageSchema.parse(res.body);
    expect(message).toMatchObject({ content: '[File: cv.pdf]', attachmentType: 'file', to: priya.ref });
    const key = fileKeyFromUrl(message.attachmentUrl)!;
    expect((await sign(priya.token, [key])).body.urls).toHaveProperty(key);
    expect((await sign(alex.token, [key])).body.urls).toHaveProperty(key);
    expect((await sign(outsider.token, [key])).body.urls).toEqual({});
    const page = (await server.get(`/api/chat/${alex.id}`, priya.token)).body as unknown as { id: string }[];
    expect(page[0]!.id).toBe(message.id);

    const unknown = await upload(server, `/api/chat/${randomUUID()}/attachments`, alex.token, {
      bytes: pdf,
      name: 'a',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(CHAT_SERVER_MSG.userNotFound);
    const self = await upload(server, `/api/chat/${alex.id}/attachments`, alex.token, {
      bytes: pdf,
      name: 'a',
    });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe(REALTIME_ERRORS.selfMessage);
  });
});

it('keeps the 64 KB limit on JSON routes and validates sign requests', async () => {
  const big = await server.post(
    '/api/groups',
    { name: 'x'.repeat(70 * 1024), memberIds: [priya.id] },
    alex.token,
  );
  expect(big.status).toBe(413);
  expect(big.body.error).toBe(SERVER_MSG.bodyTooLarge);
  expect((await sign(alex.token, ['../../etc/passwd'])).status).toBe(400);
  expect((await sign(alex.token, [])).status).toBe(400);
  expect((await server.post('/api/files/sign', { keys: ['a'.repeat(32)] })).status).toBe(401);
  // The upload routes are mounted at /api; unknown API paths still answer 404, not 401.
  expect((await server.get('/api/no-such-thing')).status).toBe(404);
});
