import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CALL_MSG } from '@campus/protocol';
import {
  answer,
  befriend,
  callFrames,
  endOf,
  frameOf,
  GRACE_MS,
  hangUp,
  logsOf,
  offer,
  online,
  startCallServer,
} from './calls-helpers';
import { testClock, type TestServer } from './support/test-server';
import { createUser, WsClient } from './support/ws-client';

/**
 * Issue 12, a call across a lost connection: the side whose connection dropped has the grace period to
 * come back with `call:resume` on a new one; past it the call ends as lost for the other side. A ring
 * timeout longer than the grace here, so a caller lost while it rings is told apart from no answer.
 */
const RING_MS = 2_000;
const clock = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startCallServer({ now: clock.now, config: { callRingTimeoutMs: RING_MS } });
});
afterAll(() => server.close());

/** Ann calls Bob (two devices); the first device answers when asked. */
async function call(options: { answered: boolean }) {
  const {
    users: [ann, bob],
    sockets: [annWs, bob1],
  } = await online(server, 'Ann', 'Bob');
  await befriend(server, ann, bob);
  const bob2 = await WsClient.connect(server, bob);
  const id = offer(annWs, bob);
  await bob1.waitFor(frameOf('call:offer', id));
  await bob2.waitFor(frameOf('call:offer', id));
  if (options.answered) {
    answer(bob1, id, ann);
    await annWs.waitFor(frameOf('call:answer', id));
  }
  return { ann, bob, annWs, bob1, bob2, id };
}

const past = (ms: number) => WsClient.settle(ms + 150);

describe('a connection lost during a call', () => {
  it('past the grace period: the other side hears lost, and the call is logged completed up to the drop', async () => {
    const { ann, bob, annWs, bob1, id } = await call({ answered: true });
    clock.advance(30_000);
    bob1.kill();
    await bob1.waitClose();
    // Time after the drop does not count.
    await WsClient.settle(50);
    clock.advance(100_000);
    expect(annWs.frames.some(endOf(id))).toBe(false);
    expect(await annWs.waitFor(endOf(id), 0, GRACE_MS * 5)).toEqual({
      type: 'call:end',
      callId: id,
      reason: 'lost',
      error: CALL_MSG.unavailable,
    });
    expect(await annWs.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: { status: 'completed', duration: 30, caller: { id: ann.id }, callee: { id: bob.id } },
    });
    // Too late to come back.
    const back = await WsClient.connect(server, bob);
    back.send({ type: 'call:resume', callId: id });
    expect(await back.waitFor(endOf(id))).toEqual({ type: 'call:end', callId: id, reason: 'unknown' });
  });

  it('within the grace period: `call:resume` on a new connection keeps the call going', async () => {
    const { ann, bob, annWs, bob1, id } = await call({ answered: true });
    annWs.kill();
    await annWs.waitClose();
    const again = await WsClient.connect(server, ann);
    again.send({ type: 'call:resume', callId: id });
    expect(await again.waitFor(frameOf('call:resumed', id))).toEqual({ type: 'call:resumed', callId: id });
    // The answer again, in case the old connection died before it arrived.
    expect(await again.waitFor(frameOf('call:answer', id))).toMatchObject({ from: bob.id });
    await past(GRACE_MS);
    expect(bob1.frames.some((f) => endOf(id)(f) && f.reason !== 'answered_elsewhere')).toBe(false);
    hangUp(bob1, id, ann);
    expect(await again.waitFor(endOf(id))).toMatchObject({ reason: 'ended' });
    expect(await bob1.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: { status: 'completed' },
    });
    expect(
      callFrames(bob1).filter((f) => f.type === 'call:end' && f.reason !== 'answered_elsewhere'),
    ).toEqual([]);
  });

  it('a resume from a new connection before the old one is seen to close moves the call to it', async () => {
    const { ann, annWs, bob1, id } = await call({ answered: true });
    const second = await WsClient.connect(server, ann);
    second.send({ type: 'call:resume', callId: id });
    await second.waitFor(frameOf('call:resumed', id));
    annWs.close();
    await annWs.waitClose();
    await past(GRACE_MS);
    expect(bob1.frames.some((f) => endOf(id)(f) && f.reason !== 'answered_elsewhere')).toBe(false);
    hangUp(bob1, id, ann);
    expect(await second.waitFor(endOf(id))).toMatchObject({ reason: 'ended' });
  });

  it('a resume of a call that is not the user’s is told nothing of it', async () => {
    const { bob, annWs, bob1, id } = await call({ answered: true });
    const eve = await createUser(server, 'Eve');
    const eveWs = await WsClient.connect(server, eve);
    eveWs.send({ type: 'call:resume', callId: id });
    expect(await eveWs.waitFor(endOf(id))).toEqual({ type: 'call:end', callId: id, reason: 'unknown' });
    await WsClient.settle();
    expect(annWs.frames.some(endOf(id))).toBe(false);
    expect(bob1.frames.some((f) => endOf(id)(f) && f.reason !== 'answered_elsewhere')).toBe(false);
    hangUp(annWs, id, bob);
    expect(await bob1.waitFor((f) => endOf(id)(f) && f.reason === 'ended')).toBeDefined();
  });
});

describe('a connection lost while it rings', () => {
  it('a callee device that closes changes nothing: another device still answers', async () => {
    const { ann, annWs, bob1, bob2, id } = await call({ answered: false });
    bob2.kill();
    await bob2.waitClose();
    await past(GRACE_MS);
    expect(annWs.frames.some(endOf(id))).toBe(false);
    answer(bob1, id, ann);
    expect(await annWs.waitFor(frameOf('call:answer', id))).toBeDefined();
  });

  it('the caller lost past the grace period: the callee stops ringing (lost), logged failed', async () => {
    const { bob1, bob2, annWs, id } = await call({ answered: false });
    annWs.kill();
    await annWs.waitClose();
    for (const ws of [bob1, bob2])
      expect(await ws.waitFor(endOf(id), 0, GRACE_MS * 5)).toEqual({
        type: 'call:end',
        callId: id,
        reason: 'lost',
      });
    expect(await bob1.waitFor((f) => f.type === 'call_logged')).toMatchObject({ log: { status: 'failed' } });
  });

  it('an answer that comes while the caller is away is handed over on its resume', async () => {
    const { ann, bob, annWs, bob1, id } = await call({ answered: false });
    annWs.kill();
    await annWs.waitClose();
    answer(bob1, id, ann);
    await WsClient.settle(50);
    const again = await WsClient.connect(server, ann);
    again.send({ type: 'call:resume', callId: id });
    await again.waitFor(frameOf('call:resumed', id));
    expect(await again.waitFor(frameOf('call:answer', id))).toMatchObject({ from: bob.id });
    hangUp(again, id, bob);
    expect(await bob1.waitFor((f) => endOf(id)(f) && f.reason === 'ended')).toBeDefined();
    // The log is written after the ending frames (a commit of its own): on PostgreSQL a page read at once
    // may come before it. Its change says it is there.
    expect(await again.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: { status: 'completed' },
    });
    expect((await logsOf(server, ann)).logs[0]).toMatchObject({ status: 'completed' });
  });
});

describe('stopping the server', () => {
  it('clears every call timer: nothing fires after the stop', async () => {
    const own = await startCallServer({ config: { callRingTimeoutMs: 200, callReconnectGraceMs: 200 } });
    const errors = vi.spyOn(own.deps.log, 'error');
    const {
      users: [ann, bob],
      sockets: [annWs, bobWs],
    } = await online(own, 'Ann', 'Bob');
    await befriend(own, ann, bob);
    const ringing = offer(annWs, bob);
    await bobWs.waitFor(frameOf('call:offer', ringing));
    await own.close();
    await WsClient.settle(400);
    expect(errors).not.toHaveBeenCalled();
  });
});
