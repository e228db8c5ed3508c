import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminReportItemSchema, notificationsResponseSchema, REPORT_MSG, SERVER_MSG } from '@campus/protocol';
import { randomTalkRestriction } from '../src/modules/reports';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { WsClient, type TestUser } from './support/ws-client';
import { account, chatted, decide, filed, queue, reportRow } from './reports-helpers';

const clock = testClock();
let server: TestServer;
let admin: TestUser;
const sockets: WsClient[] = [];
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  admin = await account(server, 'Ada', 'admin');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await server.close();
});

/** `reporter` reports `reported` from their chat, without blocking. */
async function reportChat(reporter: TestUser, reported: TestUser, extra: Record<string, unknown> = {}) {
  await chatted(server, reported, reporter);
  return filed(server, reporter, { kind: 'chat', userId: reported.id }, { block: false, ...extra });
}

const restrictionOf = (user: TestUser) =>
  server.deps.transactor.read((tx) => randomTalkRestriction(tx, user.id, clock.now()));

describe('who may use the queue', () => {
  it('answers 401 without a session and 403 to students, and changes nothing for them', async () => {
    const stu = await account(server, 'Stu');
    const vic = await account(server, 'Vic');
    const id = await reportChat(stu, vic);
    const routes = [
      ['GET', '/api/admin/reports'],
      ['GET', `/api/admin/reports/${id}`],
      ['POST', `/api/admin/reports/${id}/decision`],
      ['POST', `/api/admin/users/${vic.id}/random-hold/clear`],
    ] as const;
    for (const [method, path] of routes) {
      const body = method === 'POST' ? { decision: 'dismiss' } : undefined;
      expect((await server.call(method, path, body)).status, path).toBe(401);
      expect(await server.call(method, path, body, stu.token), path).toMatchObject({
        status: 403,
        body: { error: SERVER_MSG.forbidden },
      });
    }
    expect(await reportRow(server, id)).toMatchObject({ status: 'open', decision: null });
  });
});

describe('the queue', () => {
  it('lists open reports oldest first with both cards, the context and the reported history, in keyset pages', async () => {
    const zed = await account(server, 'Zed');
    const reporters = [
      await account(server, 'Rita'),
      await account(server, 'Remy'),
      await account(server, 'Rosa'),
    ];
    const ids: string[] = [];
    for (const r of reporters) {
      ids.push(await reportChat(r, zed, { reason: 'spam', note: `from ${r.name}` }));
      clock.advance(1000);
    }
    const all = await queue(server, admin, '?limit=100');
    const mine = all.reports.filter((r) => r.reported.id === zed.id);
    expect(mine.map((r) => r.id)).toEqual(ids);
    expect(mine[0]).toMatchObject({
      status: 'open',
      reason: 'spam',
      note: 'from Rita',
      context: { kind: 'chat', userId: zed.id },
      reporter: { id: reporters[0]!.id, firstName: 'Rita', lastName: 'Student', profilePictureUrl: null },
      reported: { id: zed.id, firstName: 'Zed' },
      reportedHistory: { reports: 3, upheld: 0 },
      evidenceCount: 0,
      decision: null,
    });
    expect(all.counts.open).toBe(all.reports.length);
    // Oldest first over the whole queue.
    const times = all.reports.map((r) => r.createdAt);
    expect([...times].sort()).toEqual(times);

    // Pages of 2 cover the queue once, in the same order.
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const page = await queue(
        server,
        admin,
        `?limit=2${before ? `&before=${encodeURIComponent(before)}` : ''}`,
      );
      expect(page.reports.length).toBeLessThanOrEqual(2);
      seen.push(...page.reports.map((r) => r.id));
      before = page.next;
    } while (before);
    expect(seen).toEqual(all.reports.map((r) => r.id));
    expect((await server.get('/api/admin/reports?before=nonsense', admin.token)).status).toBe(400);
    expect((await server.get('/api/admin/reports?status=closed', admin.token)).status).toBe(400);
    expect((await server.get('/api/admin/reports/unknown-id', admin.token)).status).toBe(404);
  });
});

describe('decisions', () => {
  it('are recorded once with the admin and the time; a second answers 409; dismissed reports leave the open tab', async () => {
    const una = await account(server, 'Una');
    const val = await account(server, 'Val');
    const id = await reportChat(una, val);
    const res = await decide(server, admin, id, { decision: 'dismiss', note: 'Banter between friends' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const item = adminReportItemSchema.parse(res.body);
    expect(item).toMatchObject({
      status: 'dismissed',
      decision: {
        decision: 'dismiss',
        note: 'Banter between friends',
        by: { id: admin.id, firstName: 'Ada' },
        at: new Date(clock.now()).toISOString(),
      },
    });
    expect(await decide(server, admin, id, { decision: 'warn' })).toMatchObject({
      status: 409,
      body: { error: REPORT_MSG.alreadyDecided },
    });
    expect(await reportRow(server, id)).toMatchObject({
      status: 'dismissed',
      decision: 'dismiss',
      decided_by: admin.id,
    });
    expect((await queue(server, admin, '?limit=100')).reports.map((r) => r.id)).not.toContain(id);
    const dismissed = await queue(server, admin, '?status=dismissed');
    expect(dismissed.reports[0]?.id).toBe(id);
    expect(dismissed.counts.dismissed).toBeGreaterThanOrEqual(1);
    // A dismissal restricts nothing.
    expect(await restrictionOf(val)).toBeNull();
    // Bad decisions are refused before anything is written.
    const other = await reportChat(una, await account(server, 'Wes'));
    for (const body of [
      { decision: 'ban' },
      { decision: 'suspend_random', days: 0 },
      { decision: 'suspend_random', days: 91 },
      { decision: 'suspend_account', days: 366 },
      { decision: 'suspend_account' },
    ])
      expect((await decide(server, admin, other, body)).status, JSON.stringify(body)).toBe(400);
    expect(await reportRow(server, other)).toMatchObject({ status: 'open' });
  });

  it('warn notifies the reported user live and in the list, never naming the reporter', async () => {
    const xia = await account(server, 'Xiomara');
    const yan = await account(server, 'Yannick');
    const id = await reportChat(xia, yan, { note: 'Xiomara here, he insulted me' });
    const ws = await WsClient.connect(server, yan);
    sockets.push(ws);
    const from = ws.frames.length;
    const res = await decide(server, admin, id, { decision: 'warn', note: 'First warning' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'upheld', reportedHistory: { reports: 1, upheld: 1 } });
    const change = await ws.waitFor((f) => f.type === 'notification_created', from);
    expect(change).toMatchObject({
      notification: { type: 'moderation_notice', title: REPORT_MSG.warningTitle },
    });
    const list = notificationsResponseSchema.parse((await server.get('/api/notifications', yan.token)).body);
    const notice = list.notifications.find((n) => n.type === 'moderation_notice');
    expect(notice).toMatchObject({ title: REPORT_MSG.warningTitle, body: REPORT_MSG.warningBody });
    const everything = JSON.stringify([ws.frames.slice(from), change, list]);
    for (const secret of [xia.id, 'Xiomara', 'First warning', id]) expect(everything).not.toContain(secret);
    // A warning restricts nothing.
    expect(await restrictionOf(yan)).toBeNull();
  });

  it('suspend_random closes random talk until the end of the period (randomTalkRestriction), and tells the user when', async () => {
    const ava = await account(server, 'Ava');
    const bo = await account(server, 'Bo');
    const id = await reportChat(ava, bo);
    const res = await decide(server, admin, id, { decision: 'suspend_random', days: 7 });
    expect(res.status).toBe(200);
    const until = new Date(clock.now() + 7 * DAY).toISOString();
    expect(res.body).toMatchObject({
      decision: { decision: 'suspend_random', days: 7, until },
      reportedRestriction: {
        randomSuspendedUntil: until,
        randomReviewHold: false,
        accountSuspendedUntil: null,
      },
    });
    expect(await restrictionOf(bo)).toEqual({ until, reason: 'suspended' });
    expect(await restrictionOf(ava)).toBeNull();
    const list = notificationsResponseSchema.parse((await server.get('/api/notifications', bo.token)).body);
    expect(list.notifications[0]?.body).toBe(REPORT_MSG.randomSuspendedBody(until));
    // A shorter suspension later never shortens it.
    const again = await reportChat(await account(server, 'Cy'), bo);
    await decide(server, admin, again, { decision: 'suspend_random', days: 1 });
    expect(await restrictionOf(bo)).toEqual({ until, reason: 'suspended' });
    // The account itself still works.
    expect((await server.get('/api/auth/me', bo.token)).status).toBe(200);
    clock.advance(7 * DAY + 1);
    expect(await restrictionOf(bo)).toBeNull();
  });

  it("shows the detail's moderation history, and an admin cannot decide a report about themselves", async () => {
    const dee = await account(server, 'Dee');
    const other = await account(server, 'Ollie', 'admin');
    const id = await reportChat(dee, other);
    expect(await decide(server, other, id, { decision: 'dismiss' })).toMatchObject({
      status: 403,
      body: { error: REPORT_MSG.ownReport },
    });
    await decide(server, admin, id, { decision: 'warn', note: 'Be nice' });
    const detail = await server.get(`/api/admin/reports/${id}`, admin.token);
    expect(detail.body).toMatchObject({
      evidence: null,
      history: [{ action: 'warn', reportId: id, note: 'Be nice', by: { id: admin.id } }],
    });
  });
});
