import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_MSG, CALL, CALL_MSG } from '@campus/protocol';
import { createGroup } from '../src/modules/groups/service';
import {
  answer,
  befriend,
  callFrames,
  chatted,
  wroteOnce,
  endOf,
  frameOf,
  hangUp,
  logsOf,
  offer,
  online,
  reject,
  RING_MS,
  sdp,
  startCallServer,
} from './calls-helpers';
import { holdCalls } from './support/held-call';
import { testClock, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

/**
 * Issue 12, one-to-one call signalling over /ws: who may call whom (checked in the database), ringing on
 * every device of the callee, the first answer taking the call, every way a call ends and the log each one
 * leaves.
 */
const clock = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startCallServer({ now: clock.now });
});
afterAll(() => server.close());

const refused = (callId: string, error: string) => ({ type: 'call:end', callId, reason: 'refused', error });

describe('who may call whom', () => {
  it('refuses strangers, oneself and unknown users, and nothing reaches the callee', async () => {
    const {
      users: [ann, sam],
      sockets: [annWs, samWs],
    } = await online(server, 'Ann', 'Sam');
    const id = offer(annWs, sam);
    expect(await annWs.waitFor(endOf(id))).toEqual(refused(id, CALL_MSG.notAllowed));
    const self = offer(annWs, ann);
    expect(await annWs.waitFor(endOf(self))).toEqual(refused(self, CALL_MSG.notAllowed));
    const nobody = offer(annWs, { id: randomUUID(), token: '', name: 'Nobody' });
    expect(await annWs.waitFor(endOf(nobody))).toEqual(refused(nobody, CALL_MSG.notAllowed));
    await WsClient.settle();
    expect(callFrames(samWs)).toEqual([]);
    expect(callFrames(annWs).filter((f) => f.type !== 'call:end')).toEqual([]);
    expect((await logsOf(server, ann)).logs).toEqual([]);
  });

  it('a first message or a shared group does not make a stranger callable: nothing rings', async () => {
    const {
      users: [ann, sue, gus],
      sockets: [annWs, sueWs, gusWs],
    } = await online(server, 'Ann', 'Sue', 'Gus');
    // Ann writes to Sue, who never answers; Ann puts Gus in a group of hers.
    await wroteOnce(server, ann, sue);
    await createGroup(server.deps, ann.id, { name: 'Lab', memberIds: [gus.id] });
    for (const callee of [sue, gus]) {
      const id = offer(annWs, callee);
      expect(await annWs.waitFor(endOf(id))).toEqual(refused(id, CALL_MSG.notAllowed));
    }
    await WsClient.settle();
    expect(callFrames(sueWs)).toEqual([]);
    expect(callFrames(gusWs)).toEqual([]);
  });

  it('places calls between friends, and to someone who wrote to the caller', async () => {
    const {
      users: [ann, fay, cid],
      sockets: [annWs, fayWs, cidWs],
    } = await online(server, 'Ann', 'Fay', 'Cid');
    await befriend(server, ann, fay);
    await wroteOnce(server, cid, ann);
    for (const [callee, ws] of [
      [fay, fayWs],
      [cid, cidWs],
    ] as const) {
      const id = offer(annWs, callee, 'video');
      expect(await ws.waitFor(frameOf('call:offer', id))).toMatchObject({
        callId: id,
        callType: 'video',
        from: { id: ann.id, firstName: 'Ann', lastName: 'Student', profilePictureUrl: null },
        signal: { type: 'offer' },
      });
      await annWs.waitFor(frameOf('call:ringing', id));
      hangUp(annWs, id, callee);
      await ws.waitFor(endOf(id));
    }
  });

  it('the caller who blocked the callee is refused, and the callee hears nothing', async () => {
    const {
      users: [ann, bob],
      sockets: [annWs, bobWs],
    } = await online(server, 'Ann', 'Bob');
    await chatted(server, ann, bob);
    expect((await server.post('/api/users/blocks', { userId: bob.id }, ann.token)).status).toBe(200);
    const id = offer(annWs, bob);
    expect(await annWs.waitFor(endOf(id))).toEqual(refused(id, CALL_MSG.youBlocked));
    await WsClient.settle();
    expect(callFrames(bobWs)).toEqual([]);
  });

  it('a callee who blocked the caller is never reached, and to the caller it looks like one who does not answer', async () => {
    const {
      users: [ann, bob, off],
      sockets: [annWs, bobWs],
    } = await online(server, 'Ann', 'Bob', 'Off');
    await chatted(server, ann, bob);
    await chatted(server, ann, off);
    // After the chat, before the block: the pull below carries the block, never a call.
    const cursor = server.engine.transactor.currentSeq();
    expect((await server.post('/api/users/blocks', { userId: ann.id }, bob.token)).status).toBe(200);

    // Refused at once would tell, and so would a missing `call:ringing` for someone online: both ring the
    // full timeout (Off simply does not answer), then no_answer.
    const place = async (callee: typeof bob) => {
      const from = annWs.frames.length;
      const id = offer(annWs, callee);
      await WsClient.settle(RING_MS / 2);
      const calls = () => annWs.frames.slice(from).filter((f) => f.type.startsWith('call:'));
      expect(calls().map((f) => f.type)).toEqual(['call:placed', 'call:ringing']);
      expect(await annWs.waitFor(endOf(id), from)).toEqual({
        type: 'call:end',
        callId: id,
        reason: 'no_answer',
        error: CALL_MSG.noAnswer,
      });
      await annWs.waitFor((f) => f.type === 'call_logged', from);
      return calls().map((f) => f.type);
    };
    expect(await place(bob)).toEqual(await place(off));
    expect(await place(off)).toEqual(['call:placed', 'call:ringing', 'call:end']);

    // The caller has the log; the blocker neither hears of it live nor finds it in the history or a pull.
    await annWs.waitFor(
      (f) => f.type === 'call_logged' && (f.log as { callee: { id: string } }).callee.id === bob.id,
    );
    await WsClient.settle();
    expect(callFrames(bobWs)).toEqual([]);
    expect((await logsOf(server, ann)).logs.map((l) => [l.callee.id, l.status])).toEqual(
      expect.arrayContaining([
        [bob.id, 'no_answer'],
        [off.id, 'no_answer'],
      ]),
    );
    expect((await logsOf(server, bob)).logs).toEqual([]);
    const from = bobWs.frames.length;
    await bobWs.pull(cursor);
    const pulled = bobWs.frames.slice(from).flatMap((f) => (f.changes ?? []) as { type: string }[]);
    expect(pulled.length).toBeGreaterThan(0);
    expect(pulled.filter((c) => c.type === 'call_logged')).toEqual([]);
  });

  it('a limited account may not place a call but may answer one', async () => {
    const peer = await createUser(server, 'Peer');
    const newcomer = await createUser(server, 'Newcomer', 'pending_submission');
    await chatted(server, peer, newcomer);
    const peerWs = await WsClient.connect(server, peer);
    const newWs = await WsClient.connect(server, newcomer);
    const id = offer(newWs, peer);
    expect(await newWs.waitFor(endOf(id))).toEqual(refused(id, ACCESS_MSG.verificationRequired));
    const incoming = offer(peerWs, newcomer);
    await newWs.waitFor(frameOf('call:offer', incoming));
    answer(newWs, incoming, peer);
    expect(await peerWs.waitFor(frameOf('call:answer', incoming))).toMatchObject({ from: newcomer.id });
    hangUp(peerWs, incoming, newcomer);
    await newWs.waitFor(frameOf('call:end', incoming));
  });

  it('limits offers per user and hour', async () => {
    const busy = await createUser(server, 'Dialer');
    const ws = await WsClient.connect(server, busy);
    // Offers to oneself are refused, and count all the same.
    for (let i = 0; i < CALL.offersPerHour; i++) offer(ws, busy);
    const last = offer(ws, busy);
    expect(await ws.waitFor(endOf(last))).toEqual(refused(last, CALL_MSG.rateLimited));
    expect(ws.of('call:end').filter((f) => f.error === CALL_MSG.rateLimited)).toHaveLength(1);
  });
});

/** Ann calls Bob, who is online on two devices. */
/**
 * Ann offers a call to Bob and, while the server still checks it (its presence lookup held), sends what
 * `meanwhile` sends; then the checks finish. Answers the call's id.
 */
async function whileOfferChecked(
  annWs: WsClient,
  bob: TestUser,
  meanwhile: (id: string) => void,
): Promise<string> {
  const lookup = holdCalls(server.deps.realtime, 'isOnlineAnywhere');
  try {
    const id = offer(annWs, bob);
    await WsClient.settle(30);
    meanwhile(id);
    await WsClient.settle(30);
    return id;
  } finally {
    lookup.restore();
    lookup.release();
  }
}

async function ringing() {
  const {
    users: [ann, bob],
    sockets: [annWs, bob1],
  } = await online(server, 'Ann', 'Bob');
  await befriend(server, ann, bob);
  const bob2 = await WsClient.connect(server, bob);
  const id = offer(annWs, bob);
  await bob1.waitFor(frameOf('call:offer', id));
  await bob2.waitFor(frameOf('call:offer', id));
  await annWs.waitFor(frameOf('call:ringing', id));
  return { ann, bob, annWs, bob1, bob2, id };
}

describe('ringing and answering', () => {
  it('rings every device; the first answer takes the call, the other device stops, a second answer is not relayed', async () => {
    const { ann, bob, annWs, bob1, bob2, id } = await ringing();
    const signal = sdp('answer');
    bob1.send({ type: 'call:answer', callId: id, to: ann.id, signal });
    expect(await annWs.waitFor(frameOf('call:answer', id))).toEqual({
      type: 'call:answer',
      callId: id,
      from: bob.id,
      signal,
    });
    // Every device of the callee hears it (the answering one ignores it: it holds the call).
    expect(await bob2.waitFor(endOf(id))).toEqual({
      type: 'call:end',
      callId: id,
      reason: 'answered_elsewhere',
    });
    await bob1.waitFor(endOf(id));
    answer(bob2, id, ann);
    expect(await bob2.waitFor((f) => endOf(id)(f) && f.reason === 'unknown')).toBeDefined();
    await WsClient.settle();
    expect(annWs.of('call:answer')).toHaveLength(1);
    // Frames of the call go between the two connections that hold it.
    hangUp(annWs, id, bob);
    expect(await bob1.waitFor((f) => endOf(id)(f) && f.reason === 'ended')).toBeDefined();
    await WsClient.settle();
    expect(bob2.frames.some((f) => endOf(id)(f) && f.reason === 'ended')).toBe(false);
  });

  it('a reject reaches the caller and stops the other devices; logged rejected', async () => {
    const { ann, bob, annWs, bob1, bob2, id } = await ringing();
    reject(bob2, id, ann);
    expect(await annWs.waitFor(frameOf('call:reject', id))).toEqual({
      type: 'call:reject',
      callId: id,
      from: bob.id,
    });
    expect(await bob1.waitFor(endOf(id))).toEqual({
      type: 'call:end',
      callId: id,
      reason: 'rejected_elsewhere',
    });
    expect(await annWs.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: {
        status: 'rejected',
        duration: 0,
        caller: { id: ann.id },
        callee: { id: bob.id },
        callType: 'audio',
      },
    });
    // Too late now: the call is over for everyone.
    answer(bob1, id, ann);
    await WsClient.settle();
    expect(annWs.of('call:answer')).toEqual([]);
  });

  it('the caller hanging up while it rings cancels it on every device: missed; cancelled if it rang nowhere', async () => {
    const { bob, annWs, bob1, bob2, id } = await ringing();
    hangUp(annWs, id, bob);
    for (const ws of [bob1, bob2])
      expect(await ws.waitFor(endOf(id))).toEqual({ type: 'call:end', callId: id, reason: 'cancelled' });
    expect(await bob1.waitFor((f) => f.type === 'call_logged')).toMatchObject({ log: { status: 'missed' } });

    bob1.close();
    bob2.close();
    await Promise.all([bob1.waitClose(), bob2.waitClose()]);
    const nowhere = offer(annWs, bob);
    await WsClient.settle(50);
    hangUp(annWs, nowhere, bob);
    await annWs.waitFor(
      (f) => f.type === 'call_logged' && (f.log as { status: string }).status === 'cancelled',
    );
    expect(annWs.frames.some(frameOf('call:ringing', nowhere))).toBe(false);
  });

  it('an answer to a call the caller cancelled meanwhile is told it is over; a stranger’s answer gets nothing', async () => {
    const {
      users: [ann, bob],
      sockets: [annWs, bobWs],
    } = await online(server, 'Ann', 'Bob');
    await befriend(server, ann, bob);
    const id = offer(annWs, bob);
    await bobWs.waitFor(frameOf('call:offer', id));
    // Bob's network drops while it rings, and Ann's cancel goes nowhere.
    bobWs.kill();
    await bobWs.waitClose();
    hangUp(annWs, id, bob);
    await annWs.waitFor((f) => f.type === 'call_logged');
    // Back online, his device still shows the call: he taps Accept.
    const bob2 = await WsClient.connect(server, bob);
    answer(bob2, id, ann);
    expect(await bob2.waitFor(endOf(id))).toEqual({ type: 'call:end', callId: id, reason: 'unknown' });

    // Anyone else answering that call id learns nothing of it, and Ann hears nothing either way.
    const eve = await createUser(server, 'Eve');
    const eveWs = await WsClient.connect(server, eve);
    answer(eveWs, id, ann);
    // Bob naming someone else than the caller.
    const before = bob2.frames.length;
    answer(bob2, id, eve);
    await WsClient.settle();
    expect(callFrames(eveWs)).toEqual([]);
    expect(bob2.frames.slice(before).filter(endOf(id))).toEqual([]);
    expect(annWs.frames.some(frameOf('call:answer', id))).toBe(false);
  });

  it('a hang-up that arrives while the offer is still being checked cancels it: nothing rings', async () => {
    const {
      users: [ann, bob],
      sockets: [annWs, bobWs],
    } = await online(server, 'Ann', 'Bob');
    await befriend(server, ann, bob);
    // On a loaded machine (or across nodes) the caller's `call:end` can overtake the server's checks of its
    // own offer.
    const id = await whileOfferChecked(annWs, bob, (placed) => hangUp(annWs, placed, bob));
    expect(await annWs.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: { status: 'cancelled', duration: 0 },
    });
    await WsClient.settle(RING_MS * 2);
    expect(callFrames(bobWs).filter((f) => f.type !== 'call_logged')).toEqual([]);
    expect(annWs.frames.some(frameOf('call:ringing', id))).toBe(false);
    expect(annWs.frames.some(endOf(id))).toBe(false);
  });

  it('an offer sent again (`retry`) is answered again with `call:placed`: nothing rings twice, the call goes on', async () => {
    const { ann, bob, annWs, bob1, bob2, id } = await ringing();
    const from = [annWs.frames.length, bob1.frames.length, bob2.frames.length] as const;
    offer(annWs, bob, 'audio', id, true);
    expect(await annWs.waitFor(frameOf('call:placed', id), from[0])).toEqual({
      type: 'call:placed',
      callId: id,
    });
    await WsClient.settle();
    // This call's frames (a presence broadcast such as online_count may come in between).
    const ofCall = (from: number) => annWs.frames.slice(from).filter((f) => f.callId === id);
    expect(ofCall(from[0]).map((f) => f.type)).toEqual(['call:placed']);
    const bobs = [bob1.frames.slice(from[1]), bob2.frames.slice(from[2])];
    expect(bobs.map((frames) => frames.filter((f) => f.callId === id))).toEqual([[], []]);
    answer(bob1, id, ann);
    const answered = await annWs.waitFor(frameOf('call:answer', id));
    expect(answered).toMatchObject({ from: bob.id });
    // Answered meanwhile (the answer lost on its way, say): the retry gets it again.
    const later = annWs.frames.length;
    offer(annWs, bob, 'audio', id, true);
    expect(await annWs.waitFor(frameOf('call:answer', id), later)).toEqual(answered);
    expect(ofCall(later).map((f) => f.type)).toEqual(['call:placed', 'call:answer']);
  });

  it('a retry of a call that ended while the caller was away gets its end again and rings nobody', async () => {
    const { ann, bob, annWs, bob1, bob2, id } = await ringing();
    // Ann's network drops while it rings; Bob rejects meanwhile, and the reject goes nowhere.
    annWs.kill();
    await annWs.waitClose();
    await WsClient.settle(50);
    reject(bob1, id, ann);
    await bob2.waitFor(endOf(id));
    const from = [bob1.frames.length, bob2.frames.length] as const;
    // Back (within the grace), her device still waits for the call to be placed: it sends the offer again.
    const ann2 = await WsClient.connect(server, ann);
    offer(ann2, bob, 'audio', id, true);
    expect(await ann2.waitFor(frameOf('call:reject', id))).toEqual({
      type: 'call:reject',
      callId: id,
      from: bob.id,
    });
    expect(ann2.frames.filter((f) => f.callId === id).map((f) => f.type)).toEqual([
      'call:placed',
      'call:reject',
    ]);
    await WsClient.settle(100);
    // A stranger's retry with that id is refused, and learns nothing of how the call ended.
    const eve = await createUser(server, 'Eve');
    const eveWs = await WsClient.connect(server, eve);
    offer(eveWs, bob, 'audio', id, true);
    expect(await eveWs.waitFor(endOf(id))).toMatchObject({ reason: 'refused' });
    await WsClient.settle(100);
    expect(eveWs.frames.filter((f) => f.callId === id).map((f) => f.type)).toEqual(['call:end']);
    eveWs.close();
    // Nothing rang again on Bob's devices (their presence frames aside).
    const later = [...bob1.frames.slice(from[0]), ...bob2.frames.slice(from[1])];
    expect(later.filter((f) => f.callId === id)).toEqual([]);
  });

  it('a retry that arrives while the first offer is still being checked is answered by it: placed once', async () => {
    const {
      users: [ann, bob],
      sockets: [annWs, bobWs],
    } = await online(server, 'Ann', 'Bob');
    await befriend(server, ann, bob);
    const id = await whileOfferChecked(annWs, bob, (placed) => offer(annWs, bob, 'audio', placed, true));
    await bobWs.waitFor(frameOf('call:offer', id));
    await annWs.waitFor(frameOf('call:ringing', id));
    await WsClient.settle();
    expect(callFrames(annWs).map((f) => f.type)).toEqual(['call:placed', 'call:ringing']);
    expect(bobWs.of('call:offer')).toHaveLength(1);
  });

  it('ends unanswered after the ring timeout: no_answer to the caller and every device of the callee', async () => {
    const { annWs, bob1, bob2, id } = await ringing();
    expect(await annWs.waitFor(endOf(id), 0, RING_MS * 5)).toEqual({
      type: 'call:end',
      callId: id,
      reason: 'no_answer',
      error: CALL_MSG.noAnswer,
    });
    for (const ws of [bob1, bob2])
      expect(await ws.waitFor(endOf(id))).toEqual({ type: 'call:end', callId: id, reason: 'no_answer' });
    expect(await bob2.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: { status: 'no_answer' },
    });
  });
});

describe('during the call', () => {
  it('an answered call ended by either side is completed, with the seconds from the answer to the end', async () => {
    const { ann, bob, annWs, bob1, id } = await ringing();
    clock.advance(5_000);
    answer(bob1, id, ann);
    await annWs.waitFor(frameOf('call:answer', id));
    // Well past the ring timeout: an answered call no longer times out.
    await WsClient.settle(RING_MS + 100);
    expect(annWs.frames.some(endOf(id))).toBe(false);
    clock.advance(65_000);
    hangUp(bob1, id, ann);
    expect(await annWs.waitFor(endOf(id))).toEqual({
      type: 'call:end',
      callId: id,
      reason: 'ended',
      error: CALL_MSG.ended,
    });
    for (const ws of [annWs, bob1])
      expect(await ws.waitFor((f) => f.type === 'call_logged')).toMatchObject({
        log: { status: 'completed', duration: 65, caller: { id: ann.id }, callee: { id: bob.id } },
      });
    const [log] = (await logsOf(server, bob)).logs;
    expect(log).toMatchObject({ status: 'completed', duration: 65 });
    expect(Date.parse(log!.startedAt)).toBeLessThan(clock.now() - 65_000);
  });

  it('a side reporting a failed connection ends it as failed on the other side', async () => {
    const { ann, bob, annWs, bob1, id } = await ringing();
    answer(bob1, id, ann);
    await annWs.waitFor(frameOf('call:answer', id));
    hangUp(annWs, id, bob, 'failed');
    expect(await bob1.waitFor((f) => endOf(id)(f) && f.reason === 'failed')).toEqual({
      type: 'call:end',
      callId: id,
      reason: 'failed',
      error: CALL_MSG.failed,
    });
    expect(await annWs.waitFor((f) => f.type === 'call_logged')).toMatchObject({ log: { status: 'failed' } });
  });

  it('a callee in a call is busy (logged missed for both), and a caller in a call cannot place another', async () => {
    const { ann, bob, annWs, bob1, id } = await ringing();
    answer(bob1, id, ann);
    await annWs.waitFor(frameOf('call:answer', id));
    const cal = await createUser(server, 'Cal');
    await chatted(server, cal, bob);
    await chatted(server, cal, ann);
    const calWs = await WsClient.connect(server, cal);
    const toBob = offer(calWs, bob);
    expect(await calWs.waitFor(endOf(toBob))).toEqual({
      type: 'call:end',
      callId: toBob,
      reason: 'busy',
      error: CALL_MSG.busy,
    });
    expect(await bob1.waitFor((f) => f.type === 'call_logged')).toMatchObject({
      log: { status: 'missed', caller: { id: cal.id }, callee: { id: bob.id } },
    });
    expect(bob1.frames.some(frameOf('call:offer', toBob))).toBe(false);
    const again = offer(annWs, cal);
    expect(await annWs.waitFor(endOf(again))).toEqual(refused(again, CALL_MSG.alreadyInCall));
    // The call itself goes on, and a call id in use cannot be taken.
    const reused = offer(calWs, ann, 'audio', id);
    expect(await calWs.waitFor((f) => endOf(reused)(f) && f.reason === 'refused')).toBeDefined();
    await WsClient.settle();
    expect(annWs.frames.some((f) => endOf(id)(f))).toBe(false);
    hangUp(annWs, id, bob);
    await bob1.waitFor((f) => endOf(id)(f) && f.reason === 'ended');
  });
});

describe('frames that are not a party’s', () => {
  it('are dropped: a stranger or the wrong `to` cannot answer, reject or end a call', async () => {
    const { ann, bob, annWs, bob1, bob2, id } = await ringing();
    const eve = await createUser(server, 'Eve');
    const eveWs = await WsClient.connect(server, eve);
    answer(eveWs, id, ann);
    reject(eveWs, id, ann);
    hangUp(eveWs, id, ann);
    hangUp(eveWs, id, bob);
    // Bob's device naming someone else than the caller.
    answer(bob2, id, eve);
    reject(bob2, id, eve);
    await WsClient.settle();
    expect(callFrames(annWs).map((f) => f.type)).toEqual(['call:placed', 'call:ringing']);
    expect(callFrames(eveWs)).toEqual([]);
    answer(bob1, id, ann);
    expect(await annWs.waitFor(frameOf('call:answer', id))).toMatchObject({ from: bob.id });
    // During the call, the callee's other device cannot end it.
    hangUp(bob2, id, ann);
    await WsClient.settle();
    expect(annWs.frames.some(endOf(id))).toBe(false);
    hangUp(annWs, id, bob);
    await bob1.waitFor((f) => endOf(id)(f) && f.reason === 'ended');
  });

  it('a stranger’s offer marked `retry` with someone else’s call id is refused, and that call goes on', async () => {
    const { ann, bob, annWs, bob1, bob2, id } = await ringing();
    const eve = await createUser(server, 'Eve');
    const eveWs = await WsClient.connect(server, eve);
    const from = [annWs.frames.length, bob1.frames.length, bob2.frames.length] as const;
    offer(eveWs, bob, 'audio', id, true);
    expect(await eveWs.waitFor(endOf(id))).toMatchObject({ reason: 'refused' });
    await WsClient.settle();
    expect(eveWs.frames.some(frameOf('call:placed', id))).toBe(false);
    // Nothing of this call reached anyone (Eve's arrival may send them presence, such as online_count).
    const ofCall = (ws: WsClient, i: number) => ws.frames.slice(from[i]).filter((f) => f.callId === id);
    expect([annWs, bob1, bob2].map(ofCall)).toEqual([[], [], []]);
    answer(bob1, id, ann);
    expect(await annWs.waitFor(frameOf('call:answer', id))).toMatchObject({ from: bob.id });
  });

  it('a hostile frame (oversized description, bad call id) gets message_error and nothing is relayed', async () => {
    const {
      users: [ann, bob],
      sockets: [annWs, bobWs],
    } = await online(server, 'Ann', 'Bob');
    await befriend(server, ann, bob);
    const from = annWs.frames.length;
    annWs.send({
      type: 'call:offer',
      callId: randomUUID(),
      to: bob.id,
      callType: 'audio',
      signal: { type: 'offer', sdp: 'a'.repeat(CALL.maxSdpChars + 1) },
    });
    annWs.send({
      type: 'call:offer',
      callId: 'not-a-uuid',
      to: bob.id,
      callType: 'audio',
      signal: sdp('offer'),
    });
    annWs.send({
      type: 'call:offer',
      callId: randomUUID(),
      to: bob.id,
      callType: 'audio',
      signal: sdp('answer'),
    });
    annWs.send({
      type: 'call:offer',
      callId: randomUUID(),
      to: bob.id,
      callType: 'hologram',
      signal: sdp('offer'),
    });
    await annWs.waitFor((f) => f.type === 'message_error', from);
    await WsClient.settle();
    const errors = annWs.frames.slice(from).filter((f) => f.type === 'message_error');
    expect(errors).toHaveLength(4);
    for (const error of errors) expect(error).toMatchObject({ code: 'badFrame', context: 'call:offer' });
    expect(callFrames(bobWs)).toEqual([]);
    expect(callFrames(annWs)).toEqual([]);
  });
});

describe('the change', () => {
  it('reaches the caller and the callee through a pull too', async () => {
    const cursor = server.engine.transactor.currentSeq();
    const { ann, bob, annWs, bob1, id } = await ringing();
    reject(bob1, id, ann);
    await annWs.waitFor(frameOf('call:reject', id));
    await annWs.waitFor((f) => f.type === 'call_logged');
    for (const user of [ann, bob]) {
      const fresh = await WsClient.connect(server, user, { pull: cursor });
      const pulled = fresh.of('changes').flatMap((f) => f.changes as { type: string; log?: unknown }[]);
      expect(
        pulled.filter((c) => c.type === 'call_logged'),
        user.name,
      ).toEqual([
        {
          type: 'call_logged',
          seq: expect.any(Number),
          log: expect.objectContaining({ status: 'rejected' }),
        },
      ]);
      fresh.close();
    }
  });
});
