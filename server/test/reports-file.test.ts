import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReportResponseSchema, REPORT, REPORT_MSG } from '@campus/protocol';
import { createGroup } from '../src/modules/groups/service';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { setDocumentStatus } from './support/verify-student';
import { account, blocked, chatted, filed, friends, loggedCall, report, reportRow } from './reports-helpers';
import { rowOf } from './support/sql';

const clock = testClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
});
afterAll(async () => {
  await server.close();
});

describe('POST /api/reports: where a report may come from', () => {
  it('files from a direct chat, a shared group, a call and a friend row, recording who, whom, where and why', async () => {
    const ana = await account(server, 'Ana');
    const ben = await account(server, 'Ben');
    await chatted(server, ben, ana);
    const res = await report(
      server,
      ana,
      { kind: 'chat', userId: ben.id },
      { reason: 'spam', note: '  Sends links all day  ' },
    );
    expect(res.status).toBe(201);
    const answer = createReportResponseSchema.parse(res.body);
    expect(answer.message).toBe(REPORT_MSG.sent);
    expect(await reportRow(server, answer.id)).toMatchObject({
      reporter_id: ana.id,
      reported_id: ben.id,
      context_kind: 'chat',
      context_ref: null,
      reason: 'spam',
      note: 'Sends links all day',
      evidence: null,
      status: 'open',
      created_at: new Date(clock.now()).toISOString(),
    });

    // A group they are both in is a chat they share.
    const cleo = await account(server, 'Cleo');
    const dan = await account(server, 'Dan');
    await createGroup(server.deps, cleo.id, { name: 'Lab', memberIds: [dan.id] });
    await filed(server, dan, { kind: 'chat', userId: cleo.id }, { block: false });

    // A call, named or not; the callee of a hidden call never had it, so cannot report from it.
    const eve = await account(server, 'Eve');
    const finn = await account(server, 'Finn');
    const callId = await loggedCall(server, eve, finn);
    const byCall = await filed(
      server,
      finn,
      { kind: 'call', callLogId: callId, userId: eve.id },
      { block: false },
    );
    expect(await reportRow(server, byCall)).toMatchObject({ context_kind: 'call', context_ref: callId });
    await filed(server, eve, { kind: 'call', userId: finn.id }, { block: false });
    const gus = await account(server, 'Gus');
    const hidden = await loggedCall(server, gus, eve, true);
    expect((await report(server, eve, { kind: 'call', userId: gus.id })).status).toBe(404);
    expect((await report(server, eve, { kind: 'call', callLogId: hidden, userId: gus.id })).status).toBe(404);
    // Someone else's call is not the reporter's to name.
    expect((await report(server, gus, { kind: 'call', callLogId: callId, userId: eve.id })).status).toBe(404);

    // Friends, and a pending request.
    const ida = await account(server, 'Ida');
    await friends(server, ida, gus);
    await filed(server, ida, { kind: 'friend', userId: gus.id }, { reason: 'hate', block: false });
    expect((await server.post('/api/users/friends/requests', { to: ida.id }, finn.token)).status).toBe(200);
    await filed(server, ida, { kind: 'friend', userId: finn.id }, { reason: 'other', block: false });
  });

  it("refuses a stranger's context like an unknown user (404), and reporting oneself", async () => {
    const jo = await account(server, 'Jo');
    const kim = await account(server, 'Kim');
    for (const context of [
      { kind: 'chat', userId: kim.id },
      { kind: 'call', userId: kim.id },
      { kind: 'friend', userId: kim.id },
      { kind: 'chat', userId: 'no-such-user' },
    ] as const) {
      expect(await report(server, jo, context), context.kind).toMatchObject({
        status: 404,
        body: { error: REPORT_MSG.notFound },
      });
    }
    expect(await report(server, jo, { kind: 'chat', userId: jo.id })).toMatchObject({
      status: 400,
      body: { error: REPORT_MSG.self },
    });
    // A random room is not reported over REST.
    expect(
      (
        await server.post(
          '/api/reports',
          { context: { kind: 'random_room', roomId: 'r1' }, reason: 'spam' },
          jo.token,
        )
      ).status,
    ).toBe(400);
    expect(
      (await rowOf<{ n: number }>(server, 'SELECT count(*) AS n FROM reports WHERE reporter_id = ?', jo.id))
        ?.n,
    ).toBe(0);
    expect(await blocked(server, jo, kim)).toBe(false);
  });

  it('validates the body and needs a session', async () => {
    const lea = await account(server, 'Lea');
    const max = await account(server, 'Max');
    await chatted(server, max, lea);
    const context = { kind: 'chat', userId: max.id } as const;
    expect((await server.post('/api/reports', { context, reason: 'spam' })).status).toBe(401);
    expect(await report(server, lea, context, { reason: 'boredom' })).toMatchObject({
      status: 400,
      body: { error: REPORT_MSG.reasonRequired },
    });
    expect(await report(server, lea, context, { note: 'x'.repeat(REPORT.noteMax + 1) })).toMatchObject({
      status: 400,
      body: { error: REPORT_MSG.noteTooLong },
    });
    await filed(server, lea, context, { note: 'x'.repeat(REPORT.noteMax), block: false });
  });
});

describe('reporting blocks', () => {
  it('blocks the reported user by default, not when unticked', async () => {
    const nia = await account(server, 'Nia');
    const oli = await account(server, 'Oli');
    const pat = await account(server, 'Pat');
    await chatted(server, oli, nia);
    await chatted(server, pat, nia);
    await friends(server, nia, oli);
    await filed(server, nia, { kind: 'chat', userId: oli.id });
    expect(await blocked(server, nia, oli)).toBe(true);
    // The block ended the friendship, as blocking does.
    expect(
      await rowOf(
        server,
        'SELECT 1 AS one FROM friendships WHERE (user_a = ? AND user_b = ?) OR (user_a = ? AND user_b = ?)',
        nia.id,
        oli.id,
        oli.id,
        nia.id,
      ),
    ).toBeUndefined();
    await filed(server, nia, { kind: 'chat', userId: pat.id }, { block: false });
    expect(await blocked(server, nia, pat)).toBe(false);
    // The reported user is never blocked the other way.
    expect(await blocked(server, oli, nia)).toBe(false);
  });

  it('lets an account that is not verified yet report and block', async () => {
    const quin = await account(server, 'Quin');
    const rae = await account(server, 'Rae');
    await setDocumentStatus(server, quin.id, 'pending_submission');
    await chatted(server, rae, quin);
    await filed(server, quin, { kind: 'chat', userId: rae.id });
    expect(await blocked(server, quin, rae)).toBe(true);
  });
});

describe('the hourly limit', () => {
  it(`takes ${REPORT.perHour} reports an hour per reporter, then answers 429 until the hour has passed`, async () => {
    const sam = await account(server, 'Sam');
    const targets = [];
    for (let i = 0; i < 3; i++) {
      const t = await account(server, `T${i}`);
      await chatted(server, t, sam);
      targets.push(t);
    }
    for (let i = 0; i < REPORT.perHour; i++)
      await filed(server, sam, { kind: 'chat', userId: targets[i % 3]!.id }, { block: false });
    const over = await report(server, sam, { kind: 'chat', userId: targets[0]!.id }, { block: false });
    expect(over).toMatchObject({ status: 429, body: { error: REPORT_MSG.tooMany } });
    expect(await blocked(server, sam, targets[0]!)).toBe(false);
    // Someone else's budget is their own.
    const uma = await account(server, 'Uma');
    await chatted(server, targets[0]!, uma);
    await filed(server, uma, { kind: 'chat', userId: targets[0]!.id }, { block: false });
    clock.advance(60 * 60_000 + 1);
    await filed(server, sam, { kind: 'chat', userId: targets[0]!.id }, { block: false });
  });
});
