import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_MSG } from '@campus/protocol';
import {
  answer,
  befriend,
  endOf,
  frameOf,
  logsOf,
  offer,
  online,
  RING_MS,
  startCallServer,
} from './calls-helpers';
import type { TestServer } from './support/test-server';
import type { TestUser } from './support/ws-client';

/** Issue 12: a block ends a call between the two at once, and the blocked side cannot tell it from a hang-up. */
let server: TestServer;
beforeAll(async () => {
  server = await startCallServer();
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

  it("stops a ringing call on the blocker's devices, while the blocked caller hears it ring out unanswered", async () => {
    const {
      users: [ann, sam],
      sockets: [annWs, samWs],
    } = await online(server, 'Ann', 'Sam');
    await befriend(server, ann, sam);
    const id = offer(annWs, sam, 'video');
    await samWs.waitFor(frameOf('call:offer', id));
    const placedAt = Date.now();

    await block(sam, ann);
    expect(await samWs.waitFor(endOf(id))).toMatchObject({ reason: 'rejected_elsewhere' });
    // Ended at once would tell Ann of the block: it rings out as any unanswered call does.
    expect(annWs.frames.some(endOf(id))).toBe(false);
    expect(await annWs.waitFor(endOf(id))).toEqual({
      type: 'call:end',
      callId: id,
      reason: 'no_answer',
      error: CALL_MSG.noAnswer,
    });
    expect(Date.now() - placedAt).toBeGreaterThanOrEqual(RING_MS - 50);
    expect(await annWs.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: { status: 'no_answer' },
    });
    // Sam is free for other calls at once, and the call stays out of his history.
    expect((await logsOf(server, sam)).logs).toEqual([]);
    const again = offer(annWs, sam);
    expect(await annWs.waitFor(endOf(again))).toMatchObject({ reason: 'refused' });
  });

  it("ends a live call when the block is made over REST while the blocker's socket is down", async () => {
    const {
      users: [ann, sam],
      sockets: [annWs, samWs],
    } = await online(server, 'Ann', 'Sam');
    await befriend(server, ann, sam);
    const id = offer(annWs, sam);
    await samWs.waitFor(frameOf('call:offer', id));
    answer(samWs, id, ann);
    await annWs.waitFor(frameOf('call:answer', id));
    samWs.close();
    await samWs.waitClose();

    await block(sam, ann);
    expect(await annWs.waitFor(endOf(id))).toMatchObject({ reason: 'ended' });
    expect(await annWs.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: { status: 'completed' },
    });
  });
});
