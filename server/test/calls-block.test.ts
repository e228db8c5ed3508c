import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_MSG } from '@campus/protocol';
import { answer, befriend, endOf, frameOf, logsOf, offer, online, startCallServer } from './calls-helpers';
import type { TestServer } from './support/test-server';
import type { TestUser } from './support/ws-client';

/** Issue 12: a block ends a call between the two at once, and the blocked side cannot tell it from a hang-up. */
let server: TestServer;
beforeAll(async () => {
  // A ring timeout far beyond the test: the ringing call below ends by the block, not by the timer.
  server = await startCallServer({ config: { callRingTimeoutMs: 60_000 } });
});
afterAll(() => server.close());

async function block(blocker: TestUser, blocked: TestUser): Promise<void> {
  expect((await server.post('/api/users/blocks', { userId: blocked.id }, blocker.token)).status).toBe(200);
}

describe('a block during a call', () => {
  it('ends a live call for both sides as a hang-up, logged completed', async () => {
    const {
      users: [ann, sam],
      sockets: [annWs, samWs],
    } = await online(server, 'Ann', 'Sam');
    await befriend(server, ann, sam);
    const id = offer(annWs, sam);
    await samWs.waitFor(frameOf('call:offer', id));
    answer(samWs, id, ann);
    await annWs.waitFor(frameOf('call:answer', id));

    await block(sam, ann);
    expect(await annWs.waitFor(endOf(id))).toEqual({
      type: 'call:end',
      callId: id,
      reason: 'ended',
      error: CALL_MSG.ended,
    });
    expect(
      await samWs.waitFor((f) => f.type === 'call:end' && f.callId === id && f.reason === 'ended'),
    ).toBeTruthy();
    expect(await annWs.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: { status: 'completed' },
    });
    expect((await logsOf(server, ann)).logs.map((l) => l.status)).toEqual(['completed']);
  });

  it('ends a ringing call: the blocked caller hears no answer, the blocker stops ringing', async () => {
    const {
      users: [ann, sam],
      sockets: [annWs, samWs],
    } = await online(server, 'Ann', 'Sam');
    await befriend(server, ann, sam);
    const id = offer(annWs, sam, 'video');
    await samWs.waitFor(frameOf('call:offer', id));

    await block(sam, ann);
    expect(await annWs.waitFor(endOf(id))).toEqual({
      type: 'call:end',
      callId: id,
      reason: 'no_answer',
      error: CALL_MSG.noAnswer,
    });
    expect(await samWs.waitFor(endOf(id))).toMatchObject({ reason: 'rejected_elsewhere' });
    // Ann can place no new call to Sam: they no longer share a friendship, and Sam blocked her.
    const again = offer(annWs, sam);
    expect(await annWs.waitFor(endOf(again))).toMatchObject({ reason: 'refused' });
    expect(await annWs.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: { status: 'no_answer' },
    });
    expect((await logsOf(server, ann)).logs.map((l) => l.status)).toEqual(['no_answer']);
  });
});
