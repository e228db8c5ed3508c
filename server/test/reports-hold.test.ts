import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminReportDetailSchema, REPORT, REPORT_MSG } from '@campus/protocol';
import { fileReport, randomTalkRestriction } from '../src/modules/reports';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import type { TestUser } from './support/ws-client';
import { account, chatted, decide, filed, queue, reportRow } from './reports-helpers';

const clock = testClock();
let server: TestServer;
let admin: TestUser;
const HOUR = 60 * 60_000;

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  admin = await account(server, 'Ada', 'admin');
});
afterAll(async () => {
  await server.close();
});

const restrictionOf = (user: TestUser) =>
  server.deps.transactor.read((tx) => randomTalkRestriction(tx, user.id, clock.now()));

async function reportedBy(reporter: TestUser, user: TestUser) {
  await chatted(server, user, reporter);
  return filed(server, reporter, { kind: 'chat', userId: user.id }, { block: false });
}

const clear = (user: TestUser, token = admin.token) =>
  server.post(`/api/admin/users/${user.id}/random-hold/clear`, { note: 'Reviewed' }, token);

describe('the automatic hold on random talk', () => {
  it(`holds a student reported by ${REPORT.autoHoldReporters} distinct people within a day, until an admin clears it`, async () => {
    const target = await account(server, 'Tara');
    const [a, b, c] = [await account(server, 'A1'), await account(server, 'B1'), await account(server, 'C1')];
    await reportedBy(a, target);
    // The same reporter again counts once.
    await reportedBy(a, target);
    await reportedBy(b, target);
    expect(await restrictionOf(target)).toBeNull();
    const third = await reportedBy(c, target);
    expect(await restrictionOf(target)).toEqual({ until: null, reason: 'review' });

    const item = (await queue(server, admin, '?limit=100')).reports.find((r) => r.id === third)!;
    expect(item.reportedRestriction.randomReviewHold).toBe(true);
    const detail = adminReportDetailSchema.parse(
      (await server.get(`/api/admin/reports/${third}`, admin.token)).body,
    );
    expect(detail.history).toMatchObject([{ action: 'auto_hold', by: null, reportId: third }]);

    const cleared = await clear(target);
    expect(cleared).toMatchObject({ status: 200, body: { message: REPORT_MSG.holdCleared, cleared: true } });
    expect(await restrictionOf(target)).toBeNull();
    expect((await clear(target)).body).toMatchObject({ cleared: false });
    // Reports from before the review no longer count: one more reporter does not hold again at once…
    clock.advance(1000);
    await reportedBy(await account(server, 'D1'), target);
    expect(await restrictionOf(target)).toBeNull();
    // …but three new ones do.
    await reportedBy(await account(server, 'E1'), target);
    await reportedBy(await account(server, 'F1'), target);
    expect(await restrictionOf(target)).toEqual({ until: null, reason: 'review' });
    expect((await server.post(`/api/admin/users/nobody/random-hold/clear`, {}, admin.token)).status).toBe(
      404,
    );
  });

  it('does not hold for reports spread over more than a day', async () => {
    const target = await account(server, 'Ulla');
    for (const name of ['A2', 'B2', 'C2']) {
      await reportedBy(await account(server, name), target);
      clock.advance(13 * HOUR);
    }
    expect(await restrictionOf(target)).toBeNull();
  });

  it(`holds once ${REPORT.autoHoldReporters} reports from distinct reporters are upheld within 30 days`, async () => {
    const target = await account(server, 'Vera');
    const ids: string[] = [];
    for (const name of ['A3', 'B3', 'C3']) {
      ids.push(await reportedBy(await account(server, name), target));
      // Apart enough that the open reports never hold on their own.
      clock.advance(25 * HOUR);
    }
    expect(await restrictionOf(target)).toBeNull();
    await decide(server, admin, ids[0]!, { decision: 'warn' });
    await decide(server, admin, ids[1]!, { decision: 'dismiss' });
    expect(await restrictionOf(target)).toBeNull();
    await decide(server, admin, ids[2]!, { decision: 'warn' });
    expect(await restrictionOf(target)).toBeNull();
    const fourth = await reportedBy(await account(server, 'D3'), target);
    const res = await decide(server, admin, fourth, { decision: 'warn' });
    expect(res.body).toMatchObject({
      reportedHistory: { reports: 4, upheld: 3 },
      reportedRestriction: { randomReviewHold: true },
    });
    expect(await restrictionOf(target)).toEqual({ until: null, reason: 'review' });
  });
});

describe('fileReport (the random module’s door)', () => {
  it('stores the last messages of a text room as evidence, which the detail route shows as a transcript', async () => {
    const reporter = await account(server, 'Wendy');
    const user = await account(server, 'Xavi');
    const messages = Array.from({ length: REPORT.evidenceMessages + 5 }, (_, i) => ({
      from: i % 2 ? ('reporter' as const) : ('reported' as const),
      text: `line ${i}`,
      at: new Date(clock.now() - (60 - i) * 1000).toISOString(),
    }));
    messages.push({
      from: 'reported',
      text: 'y'.repeat(REPORT.evidenceTextMax + 10),
      at: new Date(clock.now()).toISOString(),
    });
    const id = await server.deps.transactor.commit((tx) =>
      fileReport(tx, {
        reporterId: reporter.id,
        reportedId: user.id,
        context: { kind: 'random_room', roomId: 'room-42' },
        reason: 'nudity',
        note: 'Flashed the camera',
        evidence: { messages },
      }),
    );
    expect(await reportRow(server, id)).toMatchObject({
      context_kind: 'random_room',
      context_ref: 'room-42',
      reason: 'nudity',
    });
    const listed = (await queue(server, admin, '?limit=100')).reports.find((r) => r.id === id);
    expect(listed).toMatchObject({
      context: { kind: 'random_room', roomId: 'room-42' },
      evidenceCount: REPORT.evidenceMessages,
    });
    const detail = adminReportDetailSchema.parse(
      (await server.get(`/api/admin/reports/${id}`, admin.token)).body,
    );
    expect(detail.evidence?.messages).toHaveLength(REPORT.evidenceMessages);
    // The last 50, in order, each text within its bound.
    expect(detail.evidence?.messages[0]).toEqual(messages[messages.length - REPORT.evidenceMessages]);
    expect(detail.evidence?.messages.at(-1)?.text).toHaveLength(REPORT.evidenceTextMax);
    expect(detail.note).toBe('Flashed the camera');

    // Its refusals are the REST route's.
    await expect(
      server.deps.transactor.commit((tx) =>
        fileReport(tx, {
          reporterId: user.id,
          reportedId: user.id,
          context: { kind: 'random_room', roomId: 'room-42' },
          reason: 'spam',
        }),
      ),
    ).rejects.toMatchObject({ code: 'invalid', status: 400, message: REPORT_MSG.self });
    await expect(
      server.deps.transactor.commit((tx) =>
        fileReport(tx, {
          reporterId: user.id,
          reportedId: 'nobody',
          context: { kind: 'random_room', roomId: 'room-42' },
          reason: 'spam',
        }),
      ),
    ).rejects.toMatchObject({ code: 'unknownUser', status: 404 });
  });
});
