import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MSG, UPLOAD, UPLOAD_MSG, ocrResultSchema } from '@campus/protocol';
import { OCR_RATE } from '../src/modules/ocr';
import { OcrBusyError, OcrTimeoutError } from '../src/lib/ocr';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { addStudent, type Student } from './chat-rest-helpers';
import { pngBomb, renderIdCard, type IdCard } from './support/id-cards';

let server: TestServer;
let me: Student;
let card: IdCard;
const clock = testClock();

/** The upload page's call: multipart with the `file` field. */
async function ocrUpload(
  token: string | undefined,
  bytes: Uint8Array,
  name = 'ktm.jpg',
  type = 'image/jpeg',
) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const res = await fetch(`${server.url}/api/ocr/upload`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  // Not verified yet: exactly who uploads a student ID.
  me = await addStudent(server, 'Budi', 'Santoso', 'pending_submission');
  card = await renderIdCard({ seed: 42, layout: 'ktm', format: 'jpeg', fields: { nama: 'Budi Santoso' } });
});
afterAll(() => server.close());

describe('POST /api/ocr/upload', () => {
  it('needs a signed-in user', async () => {
    expect((await ocrUpload(undefined, card.bytes)).status).toBe(401);
    const res = await ocrUpload('not-a-real-token-123456', card.bytes);
    expect(res).toMatchObject({ status: 401, body: { error: SERVER_MSG.unauthorized } });
  });

  it('reads a card: nama, nim, kampus, jurusan', { timeout: 90_000 }, async () => {
    const res = await ocrUpload(me.token, card.bytes);
    expect(res.status).toBe(200);
    const result = ocrResultSchema.strict().parse(res.body);
    expect(result.nama).toBe('Budi Santoso');
    expect(result.nim).toBe(card.fields.nim);
    expect(result.kampus.toLowerCase()).toBe(card.fields.kampus.toLowerCase());
    expect(result.jurusan.toLowerCase()).toBe(card.fields.jurusan.toLowerCase());
  });

  it('sends a PDF to manual review without reading it', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
    const res = await ocrUpload(me.token, pdf, 'ktm.pdf', 'application/pdf');
    expect(res).toMatchObject({ status: 422, body: { error: UPLOAD_MSG.pdfManual } });
  });

  it('judges the file by its content: text named .jpg, SVG and GIF are refused with 415', async () => {
    const text = new TextEncoder().encode('Nama : Budi Santoso\nNIM : 2106123456\n');
    expect(await ocrUpload(me.token, text, 'ktm.jpg', 'image/jpeg')).toMatchObject({
      status: 415,
      body: { error: UPLOAD_MSG.fileType },
    });
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><text>Nama</text></svg>');
    expect((await ocrUpload(me.token, svg, 'ktm.png', 'image/png')).status).toBe(415);
    const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
    expect((await ocrUpload(me.token, gif, 'ktm.gif', 'image/gif')).status).toBe(415);
  });

  it('refuses more than 2 MB with the spec message', async () => {
    const big = new Uint8Array(UPLOAD.maxBytes + 1);
    big.set(card.bytes);
    expect(await ocrUpload(me.token, big)).toMatchObject({
      status: 413,
      body: { error: UPLOAD_MSG.fileTooLarge },
    });
    // Far above the limit: refused by the body limit before it is read whole.
    const huge = await ocrUpload(me.token, new Uint8Array(UPLOAD.maxBytes * 3));
    expect(huge).toMatchObject({ status: 413, body: { error: UPLOAD_MSG.fileTooLarge } });
  });

  it('answers 400 without a file field', async () => {
    const form = new FormData();
    form.append('picture', new Blob([card.bytes]), 'ktm.jpg');
    const res = await fetch(`${server.url}/api/ocr/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${me.token}` },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: UPLOAD_MSG.noFile });
  });

  it('refuses a decompression bomb quickly, with the recognition-failure message', async () => {
    const started = performance.now();
    const res = await ocrUpload(me.token, pngBomb(), 'ktm.png', 'image/png');
    expect(res.status).toBe(422);
    expect(String(res.body.error)).toMatch(
      new RegExp(`^${UPLOAD_MSG.ocrFailedPrefix.replace(/\./g, '\\.')}`),
    );
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('answers failures with the spec prefix: 503 when saturated or too slow, 500 when broken', async () => {
    const real = server.deps.ocr;
    const cases: [Error, number][] = [
      [new OcrBusyError('queue full'), 503],
      [new OcrTimeoutError('too slow'), 503],
      [new Error('worker crashed'), 500],
    ];
    try {
      for (const [error, status] of cases) {
        server.deps.ocr = { recognize: () => Promise.reject(error), close: async () => {} };
        const res = await ocrUpload(me.token, card.bytes);
        expect(res.status).toBe(status);
        expect(String(res.body.error).startsWith(UPLOAD_MSG.ocrFailedPrefix)).toBe(true);
        // Nothing of the internal error reaches the client.
        expect(String(res.body.error)).not.toContain(error.message);
      }
    } finally {
      server.deps.ocr = real;
    }
  });

  it('limits recognitions per user, then lets them through after the window', async () => {
    const student = await addStudent(server, 'Rate', 'Limited', 'pending_submission');
    // Refused files count too (each call is read and sniffed): the cheap way to use up the allowance.
    const text = new TextEncoder().encode('not an image');
    for (let i = 0; i < OCR_RATE.limit; i++) expect((await ocrUpload(student.token, text)).status).toBe(415);
    const limited = await ocrUpload(student.token, text);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Someone else is not affected.
    expect((await ocrUpload(me.token, text)).status).toBe(415);
    clock.advance(OCR_RATE.windowMs + 1);
    expect((await ocrUpload(student.token, text)).status).toBe(415);
  });
});
