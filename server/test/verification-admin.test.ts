import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_MSG,
  CHAT_SERVER_MSG,
  SERVER_MSG,
  UPLOAD,
  adminDocumentItemSchema,
  adminDocumentUrlResponseSchema,
  adminDocumentsResponseSchema,
  notificationsResponseSchema,
  userSchema,
  type AdminDocumentItem,
} from '@campus/protocol';
import { DECISION_NOTICES } from '../src/modules/verification';
import { alteredSignature } from './support/signed-url';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { WsClient } from './support/ws-client';
import { PDF_BYTES, createAccount, decide, rows, uploadDocument } from './verification-helpers';

const clock = testClock();
let server: TestServer;
let admin: Awaited<ReturnType<typeof createAccount>>;
const open: WsClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  admin = await createAccount(server, 'Ada', 'admin');
});
afterAll(async () => {
  for (const c of open) c.close();
  await server.close();
});

/** A student with a PDF submitted for manual review (no text recognition: quick). */
async function pendingStudent(name: string) {
  const student = await createAccount(server, name);
  await uploadDocument(server, student.token, PDF_BYTES, 'application/pdf', { manual: true });
  return student;
}

const list = async (query = '', token = admin.token) => {
  const res = await server.get(`/api/upload/admin/documents${query}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return adminDocumentsResponseSchema.parse(res.body);
};

describe('admin routes: who may call them', () => {
  it('answer 401 without a session and 403 to students', async () => {
    const stu = await createAccount(server, 'Stu');
    const paths = [
      ['GET', '/api/upload/admin/documents'],
      ['GET', `/api/upload/admin/document-url?userId=${stu.id}`],
      ['PATCH', `/api/upload/admin/documents/${stu.id}`],
    ] as const;
    for (const [method, path] of paths) {
      const body = method === 'PATCH' ? { action: 'exempt' } : undefined;
      expect((await server.call(method, path, body)).status, path).toBe(401);
      expect(await server.call(method, path, body, stu.token), path).toMatchObject({
        status: 403,
        body: { error: SERVER_MSG.forbidden },
      });
    }
    expect(
      await rows(server, 'SELECT * FROM users WHERE id = ? AND document_status = ?', stu.id, 'not_required'),
    ).toEqual([]);
  });
});

describe('the queue', () => {
  it('lists pending first, oldest submission first, in keyset pages, with counts and no duplicates', async () => {
    const names = ['Qa', 'Qb', 'Qc', 'Qd', 'Qe'];
    const students: { id: string }[] = [];
    for (const name of names) {
      students.push(await pendingStudent(name));
      clock.advance(1000);
    }
    const first = await list('?limit=2');
    const pendingIds = (await list('?limit=100')).users.map((u) => u.user.id);
    // Every student of this test, in the order they submitted.
    expect(pendingIds.filter((id) => students.some((s) => s.id === id))).toEqual(students.map((s) => s.id));
    expect(first.users).toHaveLength(2);
    const seen = [...first.users.map((u) => u.user.id)];
    let next = first.next;
    while (next) {
      const page = await list(`?limit=2&after=${encodeURIComponent(next)}`);
      seen.push(...page.users.map((u) => u.user.id));
      next = page.next;
    }
    expect(seen).toEqual(pendingIds);
    expect(first.counts.pending_verification).toBe(pendingIds.length);
    expect(first.counts.all).toBe((await rows(server, 'SELECT id FROM users')).length);
    for (const item of first.users) {
      expect(item.user.documentStatus).toBe('pending_verification');
      expect(item.document).toMatchObject({ contentType: 'application/pdf', manual: true });
      expect(item.document?.check.verdict).toBe('skipped');
      expect(item.history.map((h) => h.action)).toEqual(['submit']);
      expect(item.history[0]?.by.firstName).toBe(item.user.firstName);
    }

    // Other tabs and every status.
    const waiting = await list('?status=pending_submission&limit=100');
    expect(
      waiting.users.every((u) => u.user.documentStatus === 'pending_submission' && u.document === null),
    ).toBe(true);
    const all = await list('?status=all&limit=100');
    expect(all.users.map((u) => u.user.id)).toEqual(expect.arrayContaining(pendingIds));
    expect(new Set(all.users.map((u) => u.user.id)).size).toBe(all.users.length);
    // Pages of `all` cover everyone once, through both groups (submitted, then never submitted).
    const everyone: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await list(`?status=all&limit=3${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`);
      everyone.push(...page.users.map((u) => u.user.id));
      cursor = page.next;
    }
    expect(everyone.sort()).toEqual(
      (await rows<{ id: string }>(server, 'SELECT id FROM users')).map((r) => r.id).sort(),
    );

    expect((await server.get('/api/upload/admin/documents?status=nope', admin.token)).status).toBe(400);
    expect((await server.get('/api/upload/admin/documents?after=garbage', admin.token)).status).toBe(400);
    expect((await server.get('/api/upload/admin/documents?limit=1000', admin.token)).status).toBe(400);
  });
});

describe('the document URL', () => {
  it('is signed, short-lived and the only way to the file', async () => {
    const kim = await pendingStudent('Kim');
    const res = await server.get(`/api/upload/admin/document-url?userId=${kim.id}`, admin.token);
    expect(res.status).toBe(200);
    const { url, contentType } = adminDocumentUrlResponseSchema.parse(res.body);
    expect(contentType).toBe('application/pdf');
    expect(url).toMatch(new RegExp(`^/files/documents/${kim.id}/[0-9a-f]{32}\\?exp=\\d+&sig=[0-9a-f]{64}$`));

    const file = await fetch(server.url + url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('cache-control')).toContain('no-store');
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(PDF_BYTES))).toBe(true);
    // The admin's viewer frames it (the browser's PDF viewer); every other response still refuses frames.
    expect(file.headers.get('content-security-policy')).toContain("frame-ancestors 'self' app://campus-talk");
    expect(file.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const other = await fetch(`${server.url}/healthz`);
    expect(other.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(other.headers.get('x-frame-options')).toBe('DENY');

    const bare = url.split('?')[0]!;
    expect((await fetch(server.url + bare)).status).toBe(403);
    expect((await fetch(server.url + alteredSignature(url))).status).toBe(403);
    // Through the attachments' route (one segment) nothing is found either.
    expect(
      (await fetch(`${server.url}/files/${encodeURIComponent(bare.slice('/files/'.length))}`)).status,
    ).toBe(404);

    clock.advance(UPLOAD.reviewUrlTtlSeconds * 1000 + 1000);
    const late = await fetch(server.url + url);
    expect(late.status).toBe(403);
    expect(await late.json()).toEqual({ error: CHAT_SERVER_MSG.linkExpired });

    const none = await createAccount(server, 'Nod');
    expect(await server.get(`/api/upload/admin/document-url?userId=${none.id}`, admin.token)).toMatchObject({
      status: 404,
      body: { error: ADMIN_MSG.noDocument },
    });
    expect((await server.get('/api/upload/admin/document-url', admin.token)).status).toBe(400);
  });
});

describe('decisions', () => {
  it('decide the document the admin saw: a document replaced meanwhile is not verified unseen (409)', async () => {
    const ria = await pendingStudent('Ria');
    const seen = (await list()).users.find((u) => u.user.id === ria.id)?.document?.id;
    expect(seen).toBeTruthy();
    await uploadDocument(server, ria.token, PDF_BYTES, 'application/pdf', { manual: true });
    const current = (
      await rows<{ current_document_id: string }>(
        server,
        'SELECT current_document_id FROM users WHERE id = ?',
        ria.id,
      )
    )[0]!.current_document_id;
    expect(current).not.toBe(seen);
    for (const action of ['verify', 'reject'] as const) {
      expect(
        await decide(server, admin.token, ria.id, { action, reason: 'Blurred.', documentId: seen }),
      ).toMatchObject({ status: 409, body: { error: ADMIN_MSG.documentReplaced } });
    }
    expect((await decide(server, admin.token, ria.id, { action: 'verify', documentId: null })).status).toBe(
      400,
    );
    const res = await decide(server, admin.token, ria.id, { action: 'verify', documentId: current });
    expect(res.status).toBe(200);
    expect(
      await rows<{ document_id: string }>(
        server,
        `SELECT document_id FROM document_decisions WHERE user_id = ? AND action = 'verify'`,
        ria.id,
      ),
    ).toEqual([{ document_id: current }]);
  });

  it('verifies only from pending, tells every device and notifies the student', async () => {
    const lea = await pendingStudent('Lea');
    const device = await WsClient.connect(server, lea);
    open.push(device);
    const from = device.frames.length;

    const res = await decide(server, admin.token, lea.id, { action: 'verify' });
    expect(res.status).toBe(200);
    const item = adminDocumentItemSchema.parse(res.body);
    expect(item.user.documentStatus).toBe('verified');
    expect(item.history.map((h) => [h.action, h.by.id, h.fromStatus, h.toStatus])).toEqual([
      ['submit', lea.id, 'pending_submission', 'pending_verification'],
      ['verify', admin.id, 'pending_verification', 'verified'],
    ]);
    expect(item.history[1]?.by).toEqual({ id: admin.id, firstName: 'Ada', lastName: 'Tester' });

    const me = await device.waitFor((f) => f.type === 'me_updated', from);
    expect(userSchema.parse(me.user)).toMatchObject({ documentStatus: 'verified', access: 'full' });
    const created = await device.waitFor((f) => f.type === 'notification_created', from);
    expect(created.notification).toMatchObject({ type: 'document_verified', ...DECISION_NOTICES.verified });
    const panel = notificationsResponseSchema.parse((await server.get('/api/notifications', lea.token)).body);
    expect(panel.notifications[0]).toMatchObject({
      type: 'document_verified',
      title: 'Student ID verified',
      body: 'You can now post, chat and use Random Talk.',
    });

    for (const action of ['verify', 'reject'] as const) {
      expect(await decide(server, admin.token, lea.id, { action, reason: 'again' })).toMatchObject({
        status: 409,
        body: { error: ADMIN_MSG.notPending },
      });
    }
    const nobody = await createAccount(server, 'Nob');
    expect((await decide(server, admin.token, nobody.id, { action: 'verify' })).status).toBe(409);
    expect(
      await decide(server, admin.token, '00000000-0000-4000-8000-000000000000', { action: 'verify' }),
    ).toMatchObject({
      status: 404,
      body: { error: ADMIN_MSG.userNotFound },
    });
  });

  it('rejects with a reason the student sees, who can then upload again', async () => {
    const max = await pendingStudent('Max');
    const device = await WsClient.connect(server, max);
    open.push(device);
    const from = device.frames.length;

    for (const reason of [undefined, '', '   ']) {
      expect(await decide(server, admin.token, max.id, { action: 'reject', reason })).toMatchObject({
        status: 400,
        body: { error: ADMIN_MSG.reasonRequired },
      });
    }
    expect(
      (await decide(server, admin.token, max.id, { action: 'reject', reason: 'x'.repeat(501) })).body.error,
    ).toBe(ADMIN_MSG.reasonTooLong);

    const reason = 'The photo is blurred. Please upload a sharper one.';
    const res = await decide(server, admin.token, max.id, { action: 'reject', reason: `  ${reason} ` });
    expect(res.status).toBe(200);
    expect((res.body as AdminDocumentItem).rejectionReason).toBe(reason);
    const me = await device.waitFor((f) => f.type === 'me_updated', from);
    expect(userSchema.parse(me.user)).toMatchObject({
      documentStatus: 'rejected',
      rejectionReason: reason,
      access: 'limited',
    });
    const created = await device.waitFor((f) => f.type === 'notification_created', from);
    expect(created.notification).toMatchObject({
      type: 'document_rejected',
      title: 'Student ID rejected',
      body: reason,
    });
    expect((await server.get('/api/upload/document/status', max.token)).body).toMatchObject({
      documentStatus: 'rejected',
      rejectionReason: reason,
    });

    await uploadDocument(server, max.token, PDF_BYTES, 'application/pdf', { manual: true });
    const status = await server.get('/api/upload/document/status', max.token);
    expect(status.body).toMatchObject({ documentStatus: 'pending_verification', rejectionReason: null });
    const item = (await list('?limit=100')).users.find((u) => u.user.id === max.id)!;
    expect(item.history.map((h) => [h.action, h.reason])).toEqual([
      ['submit', null],
      ['reject', reason],
      ['submit', null],
    ]);
    expect(item.rejectionReason).toBeNull();
  });

  it('two admins deciding at once: one decision and one 409', async () => {
    const ned = await pendingStudent('Ned');
    const other = await createAccount(server, 'Bea', 'admin');
    const [a, b] = await Promise.all([
      decide(server, admin.token, ned.id, { action: 'verify' }),
      decide(server, other.token, ned.id, { action: 'reject', reason: 'Not a student ID.' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const decisions = await rows(
      server,
      `SELECT action FROM document_decisions WHERE user_id = ? AND action != 'submit'`,
      ned.id,
    );
    expect(decisions).toHaveLength(1);
    const notices = await rows(server, `SELECT type FROM notifications WHERE user_id = ?`, ned.id);
    expect(notices).toHaveLength(1);
  });

  it('exempts from any status, once; an exempt student has nothing to upload', async () => {
    const oli = await createAccount(server, 'Oli');
    const res = await decide(server, admin.token, oli.id, { action: 'exempt' });
    expect(res.status).toBe(200);
    expect((res.body as AdminDocumentItem).user.documentStatus).toBe('not_required');
    expect((await decide(server, admin.token, oli.id, { action: 'exempt' })).status).toBe(200);
    expect(await rows(server, 'SELECT action FROM document_decisions WHERE user_id = ?', oli.id)).toEqual([
      { action: 'exempt' },
    ]);
    expect(
      (
        await server.post(
          '/api/upload/document/sign',
          { filename: 'a.png', contentType: 'image/png' },
          oli.token,
        )
      ).status,
    ).toBe(409);
  });
});
