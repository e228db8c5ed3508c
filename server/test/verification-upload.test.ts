import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVER_MSG,
  UPLOAD,
  UPLOAD_MSG,
  myDocumentResponseSchema,
  serverCheckSchema,
  userSchema,
  type DocumentSignResponse,
} from '@campus/protocol';
import { alteredSignature } from './support/signed-url';
import { renderIdCard, type IdCard } from './support/id-cards';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { WsClient } from './support/ws-client';
import {
  PDF_BYTES,
  createAccount,
  decide,
  put,
  row,
  rows,
  sign,
  submit,
  uploadDocument,
} from './verification-helpers';
import { execSql } from './support/sql';

const clock = testClock();
let server: TestServer;
let card: IdCard;
const open: WsClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  card = await renderIdCard({
    seed: 7,
    layout: 'english',
    format: 'png',
    rotateDeg: 0,
    noise: 0,
    blur: 0,
    fields: { nama: 'Budi Santoso' },
  });
});
afterAll(async () => {
  for (const c of open) c.close();
  await server.close();
});

const signed = (res: { body: Record<string, unknown> }) => res.body as DocumentSignResponse;

describe('sign → PUT → submit', () => {
  it('stores the file under a key of the user, reads it on the server and tells every device', async () => {
    const budi = await createAccount(server, 'Budi');
    const d1 = await WsClient.connect(server, budi);
    const d2 = await WsClient.connect(server, budi);
    open.push(d1, d2);

    const res = await sign(server, budi.token, card.contentType, 'my secret name.png');
    expect(res.status).toBe(200);
    const upload = signed(res);
    expect(upload.bucket).toBe('local');
    expect(upload.key).toMatch(new RegExp(`^documents/${budi.id}/[0-9a-f]{32}$`));
    expect(upload.url).toMatch(/^\/api\/upload\/document\/put\/[^?]+\?exp=\d+&sig=[0-9a-f]{64}$/);
    expect(upload.url).not.toContain('secret');
    expect(
      await row(server, 'SELECT uploaded_size FROM upload_intents WHERE storage_key = ?', upload.key),
    ).toEqual({
      uploaded_size: null,
    });

    expect((await put(server, upload.url, card.bytes, card.contentType)).status).toBe(200);
    const done = await submit(server, budi.token, {
      bucket: upload.bucket,
      key: upload.key,
      manual: false,
      recognized: card.fields,
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ ok: true, documentStatus: 'pending_verification' });

    for (const device of [d1, d2]) {
      const change = await device.waitFor((f) => f.type === 'me_updated');
      const user = userSchema.parse(change.user);
      expect(user).toMatchObject({ id: budi.id, documentStatus: 'pending_verification', access: 'limited' });
      expect(user.documentSubmittedAt).toBeTruthy();
    }

    const doc = await row<{
      content_type: string;
      size: number;
      manual: number;
      client_recognized: string;
      server_check: string;
    }>(server, 'SELECT * FROM documents WHERE storage_key = ?', upload.key);
    expect(doc).toMatchObject({ content_type: 'image/png', size: card.bytes.length, manual: 0 });
    expect(JSON.parse(doc.client_recognized)).toEqual(card.fields);
    // The server read the image itself: its verdict is its own, whatever the client sent.
    const check = serverCheckSchema.parse(JSON.parse(doc.server_check));
    expect(check, JSON.stringify(check)).toMatchObject({ verdict: 'ok', problems: [] });
    expect(check.recognized?.nama).toMatch(/budi/i);
    expect(
      await row(server, 'SELECT * FROM upload_intents WHERE storage_key = ?', upload.key),
    ).toBeUndefined();
    const stored = path.join(server.dataDir, 'uploads', ...upload.key.split('/'));
    expect(fs.readFileSync(stored).equals(card.bytes)).toBe(true);

    const status = await server.get('/api/upload/document/status', budi.token);
    expect(myDocumentResponseSchema.parse(status.body)).toMatchObject({
      documentStatus: 'pending_verification',
      rejectionReason: null,
      contentType: 'image/png',
    });
    const history = await rows(
      server,
      'SELECT action, actor_id, from_status, to_status FROM document_decisions WHERE user_id = ?',
      budi.id,
    );
    expect(history).toEqual([
      {
        action: 'submit',
        actor_id: budi.id,
        from_status: 'pending_submission',
        to_status: 'pending_verification',
      },
    ]);
  });

  it("never trusts the client's reading: the server's own check fails a card with another name", async () => {
    const rizky = await createAccount(server, 'Rizky');
    const other = await renderIdCard({
      seed: 11,
      layout: 'ktm',
      format: 'jpeg',
      rotateDeg: 0,
      noise: 0,
      blur: 0,
      fields: { nama: 'Siti Rahmawati' },
    });
    // The client claims a reading that passes every rule for Rizky.
    const claimed = { ...other.fields, nama: 'Rizky Pratama' };
    const upload = await uploadDocument(server, rizky.token, other.bytes, other.contentType, {
      recognized: claimed,
    });
    const doc = await row<{ server_check: string; client_recognized: string }>(
      server,
      'SELECT server_check, client_recognized FROM documents WHERE storage_key = ?',
      upload.key,
    );
    const check = serverCheckSchema.parse(JSON.parse(doc.server_check));
    expect(check.verdict, JSON.stringify(check)).toBe('failed');
    expect(check.problems).toContain(UPLOAD_MSG.nameMismatch);
    expect(JSON.parse(doc.client_recognized)).toEqual(claimed);
    // Still waiting for an admin: nothing is decided automatically.
    expect(await row(server, 'SELECT document_status FROM users WHERE id = ?', rizky.id)).toEqual({
      document_status: 'pending_verification',
    });
  });

  it("records 'error' when the server cannot read an image (a broken PNG), and still queues it for review", async () => {
    const kai = await createAccount(server, 'Kai');
    const broken = new Uint8Array(4000);
    broken.set(card.bytes.subarray(0, 64));
    const upload = await uploadDocument(server, kai.token, broken, 'image/png');
    const doc = await row<{ server_check: string }>(
      server,
      'SELECT server_check FROM documents WHERE storage_key = ?',
      upload.key,
    );
    expect(JSON.parse(doc.server_check)).toEqual({ verdict: 'error', problems: [], recognized: null });
    expect(await row(server, 'SELECT document_status FROM users WHERE id = ?', kai.id)).toEqual({
      document_status: 'pending_verification',
    });
  });

  it("refuses someone else's key, a key never signed and another bucket (403)", async () => {
    const ann = await createAccount(server, 'Ann');
    const eve = await createAccount(server, 'Eve');
    const eves = signed(await sign(server, eve.token, 'image/png'));
    expect((await put(server, eves.url, card.bytes, 'image/png')).status).toBe(200);

    const stolen = await submit(server, ann.token, { bucket: 'local', key: eves.key, manual: true });
    expect(stolen).toMatchObject({ status: 403, body: { error: UPLOAD_MSG.keyNotYours } });
    const made = `documents/${ann.id}/${'a'.repeat(32)}`;
    expect((await submit(server, ann.token, { bucket: 'local', key: made })).status).toBe(403);
    const anns = signed(await sign(server, ann.token, 'image/png'));
    expect((await put(server, anns.url, card.bytes, 'image/png')).status).toBe(200);
    expect((await submit(server, ann.token, { bucket: 'other', key: anns.key })).status).toBe(403);
    expect(
      await row(server, 'SELECT count(*) AS n FROM documents WHERE user_id IN (?, ?)', ann.id, eve.id),
    ).toEqual({ n: 0 });
    // Eve's own submission still works.
    expect((await submit(server, eve.token, { bucket: 'local', key: eves.key, manual: true })).status).toBe(
      200,
    );
  });

  it('refuses a forged, altered or expired signature, and a link used twice', async () => {
    const cid = await createAccount(server, 'Cid');
    const upload = signed(await sign(server, cid.token, 'image/png'));
    const forged = alteredSignature(upload.url);
    expect(await put(server, forged, card.bytes, 'image/png')).toMatchObject({ status: 403 });
    expect((await put(server, upload.url.replace(/sig=.*/, ''), card.bytes, 'image/png')).status).toBe(403);
    // Another user's path with this signature.
    const other = upload.url.replace(cid.id, '00000000-0000-4000-8000-000000000000');
    expect((await put(server, other, card.bytes, 'image/png')).status).toBe(403);
    // The content type is signed: the PUT must send the one it was signed for.
    expect((await put(server, upload.url, card.bytes, 'image/jpeg')).status).toBe(403);
    const later = upload.url.replace(/exp=(\d+)/, (_, exp: string) => `exp=${Number(exp) + 3600}`);
    expect((await put(server, later, card.bytes, 'image/png')).status).toBe(403);

    expect((await put(server, upload.url, card.bytes, 'image/png')).status).toBe(200);
    expect(await put(server, upload.url, card.bytes, 'image/png')).toMatchObject({
      status: 410,
      body: { error: UPLOAD_MSG.uploadExpired },
    });

    const late = signed(await sign(server, cid.token, 'image/png'));
    clock.advance(UPLOAD.signedUrlTtlSeconds * 1000 + 2000);
    expect(await put(server, late.url, card.bytes, 'image/png')).toMatchObject({
      status: 410,
      body: { error: UPLOAD_MSG.uploadExpired },
    });
    // Never uploaded: its submission is refused as expired.
    expect(await submit(server, cid.token, { bucket: 'local', key: late.key })).toMatchObject({
      status: 400,
      body: { error: UPLOAD_MSG.uploadExpired },
    });
    // Uploaded in time: still submittable after the link expired.
    expect((await submit(server, cid.token, { bucket: 'local', key: upload.key, manual: true })).status).toBe(
      200,
    );
  });

  it('decides the type by content: wrong bytes or types are refused (415 / 400) and nothing is stored', async () => {
    const dee = await createAccount(server, 'Dee');
    for (const type of ['image/gif', 'text/html', 'image/svg+xml', '']) {
      expect(await sign(server, dee.token, type)).toMatchObject({
        status: 400,
        body: { error: UPLOAD_MSG.fileType },
      });
    }
    const upload = signed(await sign(server, dee.token, 'image/png'));
    const text = new TextEncoder().encode('just some text, not an image at all');
    expect(await put(server, upload.url, text, 'image/png')).toMatchObject({
      status: 415,
      body: { error: UPLOAD_MSG.fileType },
    });
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    expect((await put(server, upload.url, gif, 'image/png')).status).toBe(415);
    expect((await put(server, upload.url, PDF_BYTES, 'image/png')).status).toBe(415);
    expect(await submit(server, dee.token, { bucket: 'local', key: upload.key })).toMatchObject({
      status: 400,
      body: { error: UPLOAD_MSG.uploadMissing },
    });
    // A JPEG declared as PNG is an image all the same, stored as what it is.
    const jpeg = await sharp(card.bytes).jpeg().toBuffer();
    expect(await put(server, upload.url, jpeg, 'image/png')).toMatchObject({
      status: 200,
      body: { contentType: 'image/jpeg' },
    });
    const pdf = signed(await sign(server, dee.token, 'application/pdf'));
    expect((await put(server, pdf.url, card.bytes, 'application/pdf')).status).toBe(415);
  });

  it('refuses a body above 2 MB (413), declared or streamed', async () => {
    const eli = await createAccount(server, 'Eli');
    const upload = signed(await sign(server, eli.token, 'image/png'));
    const big = new Uint8Array(UPLOAD.maxBytes + 1);
    big.set(card.bytes.subarray(0, 8));
    expect(await put(server, upload.url, big, 'image/png')).toMatchObject({
      status: 413,
      body: { error: UPLOAD_MSG.fileTooLarge },
    });
    // Chunked, without a length: counted as it streams in.
    const chunk = new Uint8Array(256 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > UPLOAD.maxBytes + chunk.length) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(server.url + upload.url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    // The link is still good for a file of the right size.
    expect((await put(server, upload.url, card.bytes, 'image/png')).status).toBe(200);
  });

  it('takes a PDF for manual review (the server check is skipped)', async () => {
    const fay = await createAccount(server, 'Fay');
    const upload = await uploadDocument(server, fay.token, PDF_BYTES, 'application/pdf', { manual: true });
    const doc = await row<{
      content_type: string;
      manual: number;
      server_check: string;
      client_recognized: null;
    }>(server, 'SELECT * FROM documents WHERE storage_key = ?', upload.key);
    expect(doc).toMatchObject({ content_type: 'application/pdf', manual: 1, client_recognized: null });
    expect(JSON.parse(doc.server_check)).toEqual({ verdict: 'skipped', problems: [], recognized: null });
  });

  it('answers a repeated submission the same without a second record; a new upload replaces the pending one', async () => {
    const gus = await createAccount(server, 'Gus');
    const first = await uploadDocument(server, gus.token, PDF_BYTES, 'application/pdf', { manual: true });
    const again = await submit(server, gus.token, { bucket: 'local', key: first.key, manual: true });
    expect(again).toMatchObject({ status: 200, body: { ok: true, documentStatus: 'pending_verification' } });
    expect(await rows(server, 'SELECT id FROM documents WHERE user_id = ?', gus.id)).toHaveLength(1);

    const second = await uploadDocument(server, gus.token, PDF_BYTES, 'application/pdf', { manual: true });
    const docs = await rows<{ id: string; storage_key: string }>(
      server,
      'SELECT id, storage_key FROM documents WHERE user_id = ? ORDER BY submitted_at',
      gus.id,
    );
    expect(docs.map((d) => d.storage_key)).toEqual([first.key, second.key]);
    expect(await row(server, 'SELECT current_document_id FROM users WHERE id = ?', gus.id)).toEqual({
      current_document_id: docs[1]!.id,
    });
    // The superseded submission is history now: submitting it again is refused. No admin decided it, so its
    // file goes: a pending student re-submitting cannot pile up files.
    expect((await submit(server, gus.token, { bucket: 'local', key: first.key, manual: true })).status).toBe(
      400,
    );
    expect(fs.existsSync(path.join(server.dataDir, 'uploads', ...first.key.split('/')))).toBe(false);
    expect(fs.existsSync(path.join(server.dataDir, 'uploads', ...second.key.split('/')))).toBe(true);
    expect(
      await rows(server, `SELECT action FROM document_decisions WHERE user_id = ?`, gus.id),
    ).toHaveLength(2);
  });

  it('refuses a verified or exempt student (409), and every route without a session (401)', async () => {
    const hal = await createAccount(server, 'Hal');
    const upload = signed(await sign(server, hal.token, 'application/pdf'));
    expect((await put(server, upload.url, PDF_BYTES, 'application/pdf')).status).toBe(200);
    await execSql(server, `UPDATE users SET document_status = 'verified' WHERE id = ?`, hal.id);
    expect(await sign(server, hal.token, 'image/png')).toMatchObject({
      status: 409,
      body: { error: UPLOAD_MSG.alreadyVerified },
    });
    expect((await submit(server, hal.token, { bucket: 'local', key: upload.key, manual: true })).status).toBe(
      409,
    );
    await execSql(server, `UPDATE users SET document_status = 'not_required' WHERE id = ?`, hal.id);
    expect((await sign(server, hal.token, 'image/png')).status).toBe(409);

    expect((await sign(server, '', 'image/png')).status).toBe(401);
    expect((await submit(server, '', { bucket: 'local', key: upload.key })).status).toBe(401);
    expect(await server.get('/api/upload/document/status')).toMatchObject({
      status: 401,
      body: { error: SERVER_MSG.unauthorized },
    });
  });

  it('limits signed uploads per user (429)', async () => {
    const ivy = await createAccount(server, 'Ivy');
    for (let i = 0; i < 20; i++) expect((await sign(server, ivy.token, 'image/png')).status).toBe(200);
    expect((await sign(server, ivy.token, 'image/png')).status).toBe(429);
  });

  it("keeps a rejected document's file (the history's evidence) when the student uploads again", async () => {
    const kai = await createAccount(server, 'Kai');
    const first = await uploadDocument(server, kai.token, PDF_BYTES, 'application/pdf', { manual: true });
    const reviewer = await createAccount(server, 'Rev', 'admin');
    await execSql(server, `UPDATE users SET document_status = 'not_required' WHERE id = ?`, reviewer.id);
    expect(
      (await decide(server, reviewer.token, kai.id, { action: 'reject', reason: 'Cut off.' })).status,
    ).toBe(200);
    await uploadDocument(server, kai.token, PDF_BYTES, 'application/pdf', { manual: true });
    expect(fs.existsSync(path.join(server.dataDir, 'uploads', ...first.key.split('/')))).toBe(true);
  });

  it("sweeps anyone's abandoned uploads, never a file submitted while the sweep ran", async () => {
    const lu = await createAccount(server, 'Lu');
    const mo = await createAccount(server, 'Mo');
    const abandoned = signed(await sign(server, lu.token, 'application/pdf'));
    expect((await put(server, abandoned.url, PDF_BYTES, 'application/pdf')).status).toBe(200);
    const late = signed(await sign(server, mo.token, 'application/pdf'));
    expect((await put(server, late.url, PDF_BYTES, 'application/pdf')).status).toBe(200);
    clock.advance(2 * 60 * 60_000);
    const fileOf = (key: string) => path.join(server.dataDir, 'uploads', ...key.split('/'));

    // Mo submits while the sweep (run by Lu's next sign) is between reading the stale list and dropping.
    const transactor = server.deps.transactor;
    const commit = transactor.commit.bind(transactor);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let gated = false;
    transactor.commit = (async (work: Parameters<typeof commit>[0]) => {
      if (!gated) {
        gated = true;
        await gate;
      }
      return commit(work);
    }) as typeof transactor.commit;
    try {
      const sweeping = sign(server, lu.token, 'application/pdf');
      await expect.poll(() => gated).toBe(true);
      expect((await submit(server, mo.token, { bucket: 'local', key: late.key, manual: true })).status).toBe(
        200,
      );
      release();
      expect((await sweeping).status).toBe(200);
    } finally {
      transactor.commit = commit;
    }
    expect(fs.existsSync(fileOf(late.key))).toBe(true);
    expect(fs.existsSync(fileOf(abandoned.key))).toBe(false);
    expect(
      await row(server, 'SELECT * FROM upload_intents WHERE storage_key = ?', abandoned.key),
    ).toBeUndefined();
  });

  it('sweeps abandoned uploads and their files when the user signs again', async () => {
    const jo = await createAccount(server, 'Jo');
    const old = signed(await sign(server, jo.token, 'image/png'));
    expect((await put(server, old.url, card.bytes, 'image/png')).status).toBe(200);
    const file = path.join(server.dataDir, 'uploads', ...old.key.split('/'));
    expect(fs.existsSync(file)).toBe(true);
    clock.advance(2 * 60 * 60_000);
    expect((await sign(server, jo.token, 'image/png')).status).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect(await row(server, 'SELECT * FROM upload_intents WHERE storage_key = ?', old.key)).toBeUndefined();
  });
});
