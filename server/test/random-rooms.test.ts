import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { holdCalls } from './support/held-call';
import { WsClient } from './support/ws-client';
import type { TestServer } from './support/test-server';
import {
  closeAll,
  connect,
  endOf,
  GRACE_MS,
  isMatch,
  LIMIT_MS,
  matched,
  queue,
  randomFrames,
  sdp,
  startRandomServer,
  student,
} from './random-helpers';

/**
 * Issue 13, random talk over real sockets: matching, the room's relay (to the partner only, never naming
 * them), the server's time limit, leaving, and connections that drop.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startRandomServer();
});
afterEach(closeAll);
afterAll(() => server.close());

describe('random rooms', () => {
  it('two students queue and match with each other’s card, one initiates; a third waits', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob', {
      profile: { college: { id: 'c-iit', name: 'IIT Delhi', country: 'IN' }, course: 'ECE' },
    });
    const cat = await student(server, 'Cat');
    queue(ann.ws, 'audio');
    const waiting = await ann.ws.waitFor((f) => f.type === 'random-queue');
    expect(waiting).toMatchObject({ kind: 'audio', binding: 0, widened: false });
    expect(Math.abs(Date.parse(waiting.since as string) - Date.now())).toBeLessThan(5000);
    queue(bob.ws, 'audio');
    const [fa, fb] = [await ann.ws.waitFor(isMatch), await bob.ws.waitFor(isMatch)];
    expect(fa).toMatchObject({
      type: 'partner-found',
      kind: 'audio',
      isInitiator: true,
      partner: { firstName: 'Bob', profilePictureUrl: null, college: 'IIT Delhi', course: 'ECE' },
    });
    expect(fb).toMatchObject({
      type: 'partner-found',
      roomId: fa.roomId,
      isInitiator: false,
      partner: {
        firstName: 'Ann',
        college: 'Massachusetts Institute of Technology',
        course: 'Computer Science',
      },
    });
    expect(fa.matched).toBeUndefined();
    const endsAt = Date.parse(fa.endsAt as string);
    expect(endsAt - Date.now()).toBeGreaterThan(0);
    expect(endsAt - Date.now()).toBeLessThanOrEqual(LIMIT_MS);
    // Cat waits: nobody is left for her.
    queue(cat.ws, 'audio');
    await cat.ws.waitFor((f) => f.type === 'random-queue');
    await WsClient.settle(200);
    expect(cat.ws.frames.some(isMatch)).toBe(false);
  });

  it('relays text and typing to the partner only, with the server’s time, and never names the partner', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const eve = await student(server, 'Eve');
    const { roomId } = await matched(ann.ws, bob.ws, 'chat');
    expect(ann.ws.frames.find(isMatch)).toMatchObject({
      type: 'random-matched',
      partner: { firstName: 'Bob' },
    });
    ann.ws.send({ type: 'random-typing', roomId, typing: true });
    expect(await bob.ws.waitFor((f) => f.type === 'random-typing')).toEqual({
      type: 'random-typing',
      roomId,
      typing: true,
    });
    ann.ws.send({ type: 'chat-message', roomId, text: 'hi from Ann' });
    const got = await bob.ws.waitFor((f) => f.type === 'chat-message');
    expect(got).toMatchObject({ type: 'chat-message', roomId, text: 'hi from Ann' });
    expect(Math.abs(Date.parse(got.timestamp as string) - Date.now())).toBeLessThan(5000);
    bob.ws.send({ type: 'chat-message', roomId, text: 'hello Ann' });
    await ann.ws.waitFor((f) => f.type === 'chat-message');
    // Blank text is ignored; an outsider naming the room reaches nobody.
    ann.ws.send({ type: 'chat-message', roomId, text: '   ' });
    eve.ws.send({ type: 'chat-message', roomId, text: 'let me in' });
    eve.ws.send({ type: 'random-typing', roomId, typing: true });
    await WsClient.settle(200);
    expect(bob.ws.of('chat-message').map((f) => f.text)).toEqual(['hi from Ann']);
    expect(ann.ws.of('chat-message').map((f) => f.text)).toEqual(['hello Ann']);
    // The sender does not get its own message back.
    expect(eve.ws.frames.filter((f) => f.roomId === roomId)).toEqual([]);
    expect(JSON.stringify(randomFrames(ann.ws))).not.toContain(bob.user.id);
    expect(JSON.stringify(randomFrames(bob.ws))).not.toContain(ann.user.id);
  });

  it('relays the call’s offer and answer within the room only, from the right side', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const eve = await student(server, 'Eve');
    const { roomId, a, b } = await matched(ann.ws, bob.ws, 'video');
    const [init, other] = a.isInitiator ? [ann, bob] : [bob, ann];
    expect(b.isInitiator).toBe(!a.isInitiator);
    // The answering side may not offer, nor the initiator answer; outsiders reach nobody.
    other.ws.send({ type: 'call-user', roomId, signalData: sdp('offer') });
    init.ws.send({ type: 'answer-call', roomId, signal: sdp('answer') });
    eve.ws.send({ type: 'call-user', roomId, signalData: sdp('offer') });
    init.ws.send({ type: 'call-user', roomId, signalData: sdp('offer') });
    expect(await other.ws.waitFor((f) => f.type === 'incoming-call')).toEqual({
      type: 'incoming-call',
      roomId,
      signal: sdp('offer'),
    });
    other.ws.send({ type: 'answer-call', roomId, signal: sdp('answer') });
    expect(await init.ws.waitFor((f) => f.type === 'call-accepted')).toEqual({
      type: 'call-accepted',
      roomId,
      signal: sdp('answer'),
    });
    await WsClient.settle(150);
    expect(other.ws.of('incoming-call')).toHaveLength(1);
    expect(init.ws.of('incoming-call')).toHaveLength(0);
    expect(init.ws.of('call-accepted')).toHaveLength(1);
    expect(other.ws.of('call-accepted')).toHaveLength(0);
    expect(eve.ws.frames.filter((f) => f.roomId === roomId)).toEqual([]);
  });

  it('reveal: each side’s consent reaches both, and both unblur once both agreed', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'video');
    ann.ws.send({ type: 'random-reveal', roomId, reveal: true });
    expect(await bob.ws.waitFor((f) => f.type === 'random-reveal')).toEqual({
      type: 'random-reveal',
      roomId,
      partner: true,
      both: false,
    });
    expect(await ann.ws.waitFor((f) => f.type === 'random-reveal')).toMatchObject({
      partner: false,
      both: false,
    });
    bob.ws.send({ type: 'random-reveal', roomId, reveal: true });
    await ann.ws.waitFor((f) => f.type === 'random-reveal' && f.both === true);
    await bob.ws.waitFor((f) => f.type === 'random-reveal' && f.both === true);
    expect(ann.ws.of('random-reveal').at(-1)).toMatchObject({ partner: true, both: true });
    // Taking it back blurs both again.
    bob.ws.send({ type: 'random-reveal', roomId, reveal: false });
    const from = bob.ws.frames.length;
    await ann.ws.waitFor((f) => f.type === 'random-reveal' && f.partner === false);
    expect(await bob.ws.waitFor((f) => f.type === 'random-reveal', from)).toMatchObject({
      partner: true,
      both: false,
    });
  });

  it('ends an audio or video room for both at the server’s time limit; a text room has none', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'video');
    const started = Date.now();
    for (const s of [ann, bob])
      expect(await s.ws.waitFor(endOf(roomId), 0, LIMIT_MS * 5)).toEqual({
        type: 'call-ended',
        roomId,
        reason: 'time_limit',
      });
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIMIT_MS - 100);
    // Over: nothing is relayed any more.
    ann.ws.send({ type: 'call-user', roomId, signalData: sdp('offer') });
    const cat = await student(server, 'Cat');
    const dan = await student(server, 'Dan');
    const chat = await matched(cat.ws, dan.ws, 'chat');
    await WsClient.settle(LIMIT_MS + 200);
    expect(cat.ws.frames.some(endOf(chat.roomId))).toBe(false);
    expect(bob.ws.of('incoming-call')).toEqual([]);
  });

  it('leaving ends the room: `left` to the partner, `you_left` to the leaver (end-call too)', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const chat = await matched(ann.ws, bob.ws, 'chat');
    ann.ws.send({ type: 'leave-random-room', roomId: chat.roomId });
    expect(await bob.ws.waitFor(endOf(chat.roomId))).toEqual({
      type: 'random-chat-ended',
      roomId: chat.roomId,
      reason: 'left',
    });
    expect(await ann.ws.waitFor(endOf(chat.roomId))).toMatchObject({ reason: 'you_left' });
    // A new pair (the same one is not matched again so soon).
    const cat = await student(server, 'Cat');
    const call = await matched(ann.ws, cat.ws, 'audio');
    cat.ws.send({ type: 'end-call', roomId: call.roomId });
    expect(await ann.ws.waitFor(endOf(call.roomId))).toEqual({
      type: 'call-ended',
      roomId: call.roomId,
      reason: 'left',
    });
    expect(await cat.ws.waitFor(endOf(call.roomId))).toMatchObject({ reason: 'you_left' });
  });

  it('a waiting student whose connection closes leaves the queue at once; Cancel does too', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const cat = await student(server, 'Cat');
    queue(ann.ws, 'chat');
    await ann.ws.waitFor((f) => f.type === 'random-queue');
    ann.ws.kill();
    await ann.ws.waitClose();
    await WsClient.settle(50);
    queue(bob.ws, 'chat');
    await bob.ws.waitFor((f) => f.type === 'random-queue');
    bob.ws.send({ type: 'leave-random-queue' });
    await WsClient.settle(100);
    queue(cat.ws, 'chat');
    await cat.ws.waitFor((f) => f.type === 'random-queue');
    await WsClient.settle(200);
    expect(bob.ws.frames.some(isMatch)).toBe(false);
    expect(cat.ws.frames.some(isMatch)).toBe(false);
    cat.ws.send({ type: 'leave-random-queue' });
  });

  it('a Cancel that overtakes its own Find’s checks cancels it: not queued, never matched', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    // Ann's queueing read is held until her Cancel is in: on a loaded server (or across nodes) the Cancel
    // can arrive while the server still checks the Find.
    const read = holdCalls(server.deps.transactor, 'read');
    try {
      queue(ann.ws, 'chat');
      await WsClient.settle(30);
      ann.ws.send({ type: 'leave-random-queue' });
      await WsClient.settle(30);
    } finally {
      read.restore();
      read.release();
    }
    await WsClient.settle(100);
    queue(bob.ws, 'chat');
    await bob.ws.waitFor((f) => f.type === 'random-queue');
    await WsClient.settle(200);
    expect(ann.ws.frames.some((f) => f.type === 'random-queue')).toBe(false);
    expect(ann.ws.frames.some(isMatch)).toBe(false);
    expect(bob.ws.frames.some(isMatch)).toBe(false);
    bob.ws.send({ type: 'leave-random-queue' });
  });

  it('a Find sent again (`retry`) is answered again when the first was taken: the same wait, the same room', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const cat = await student(server, 'Cat');
    const queued = (f: { type: string }) => f.type === 'random-queue';
    queue(ann.ws, 'chat');
    const wait = await ann.ws.waitFor(queued);
    // Answered again with the same wait (its `since`), not queued anew behind the students who came since.
    await WsClient.settle(20);
    let from = ann.ws.frames.length;
    queue(ann.ws, 'chat', undefined, true);
    expect(await ann.ws.waitFor(queued, from)).toEqual(wait);

    queue(bob.ws, 'chat');
    const [found, bobFound] = await Promise.all([ann.ws.waitFor(isMatch), bob.ws.waitFor(isMatch)]);
    // Matched meanwhile (the match was lost on its way, say): the match again, and the room goes on.
    from = ann.ws.frames.length;
    const bobFrom = bob.ws.frames.length;
    queue(ann.ws, 'chat', undefined, true);
    expect(await ann.ws.waitFor(isMatch, from)).toEqual(found);
    ann.ws.send({ type: 'random-typing', roomId: found.roomId, typing: true });
    expect(await bob.ws.waitFor((f) => f.type === 'random-typing', bobFrom)).toMatchObject({
      roomId: bobFound.roomId,
      typing: true,
    });
    expect(bob.ws.frames.slice(bobFrom).some(endOf(bobFound.roomId as string))).toBe(false);

    // Another of Ann's connections holds neither: its retry is a Find like any, and moves her there.
    const annPhone = await connect(server, ann.user);
    queue(annPhone, 'chat', undefined, true);
    expect(await ann.ws.waitFor(endOf(found.roomId as string))).toMatchObject({ reason: 'other_device' });
    await annPhone.waitFor(queued);
    // A retry whose first Find never arrived queues.
    queue(cat.ws, 'audio', undefined, true);
    expect(await cat.ws.waitFor(queued)).toMatchObject({ kind: 'audio' });
  });

  it('a dropped connection: the partner hears `disconnected` after the grace unless the student is back', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    // Back within the grace on a new connection: the room goes on, and the new connection holds the side.
    const first = await matched(ann.ws, bob.ws, 'chat');
    bob.ws.kill();
    await bob.ws.waitClose();
    const bob2 = await connect(server, bob.user);
    bob2.send({ type: 'random-typing', roomId: first.roomId, typing: false });
    await WsClient.settle(GRACE_MS + 200);
    expect(ann.ws.frames.some(endOf(first.roomId))).toBe(false);
    ann.ws.send({ type: 'chat-message', roomId: first.roomId, text: 'still there?' });
    expect(await bob2.waitFor((f) => f.type === 'chat-message')).toMatchObject({ text: 'still there?' });
    // Gone past the grace: ended for the partner.
    bob2.kill();
    await bob2.waitClose();
    const dropped = Date.now();
    expect(await ann.ws.waitFor(endOf(first.roomId), 0, GRACE_MS * 5)).toEqual({
      type: 'random-chat-ended',
      roomId: first.roomId,
      reason: 'disconnected',
    });
    expect(Date.now() - dropped).toBeGreaterThanOrEqual(GRACE_MS - 50);
  });

  it('random-resume takes the side back after a drop: `random-resumed`, then the partner’s lines after those it has', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'chat');
    ann.ws.send({ type: 'chat-message', roomId, text: 'zero' });
    await bob.ws.waitFor((f) => f.type === 'chat-message');
    bob.ws.kill();
    await bob.ws.waitClose();
    await WsClient.settle(50);
    ann.ws.send({ type: 'chat-message', roomId, text: 'one' });
    ann.ws.send({ type: 'chat-message', roomId, text: 'two' });
    ann.ws.send({ type: 'random-typing', roomId, typing: true });
    await WsClient.settle(50);
    const bob2 = await connect(server, bob.user);
    bob2.send({ type: 'random-resume', roomId, heard: 1 });
    await bob2.waitFor((f) => f.type === 'chat-message' && f.text === 'two');
    const texts = (ws: WsClient) => ws.frames.filter((f) => f.type === 'chat-message').map((f) => f.text);
    expect(randomFrames(bob2).map((f) => [f.type, f.text, f.i])).toEqual([
      ['random-resumed', undefined, undefined],
      ['chat-message', 'one', 2],
      ['chat-message', 'two', 3],
    ]);
    expect(bob2.frames.find((f) => f.type === 'chat-message')).toMatchObject({
      roomId,
      timestamp: expect.any(String),
    });
    // The room goes on both ways past the grace.
    await WsClient.settle(GRACE_MS + 200);
    expect(ann.ws.frames.some(endOf(roomId))).toBe(false);
    bob2.send({ type: 'chat-message', roomId, text: 'back' });
    expect(await ann.ws.waitFor((f) => f.type === 'chat-message')).toMatchObject({ text: 'back' });
    // The count decides, whatever the server took for delivered: a connection that says it has none gets all
    // three (lines written to a socket that was already dead), one that has them all gets nothing again.
    const bob3 = await connect(server, bob.user);
    bob3.send({ type: 'random-resume', roomId, heard: 0 });
    await bob3.waitFor((f) => f.type === 'chat-message' && f.text === 'two');
    expect(texts(bob3)).toEqual(['zero', 'one', 'two']);
    bob3.send({ type: 'random-resume', roomId, heard: 3 });
    await WsClient.settle(150);
    expect(bob3.frames.filter((f) => f.type === 'random-resumed')).toHaveLength(2);
    expect(texts(bob3)).toEqual(['zero', 'one', 'two']);
  });

  it('a numbered line sent again reaches the partner once; resume tells the device how many of its lines the room has (`said`)', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'chat');
    const lines = (ws: WsClient) =>
      ws.frames.filter((f) => f.type === 'chat-message').map((f) => [f.text, f.i]);
    ann.ws.send({ type: 'chat-message', roomId, text: 'a', n: 1 });
    ann.ws.send({ type: 'chat-message', roomId, text: 'a', n: 1 });
    ann.ws.send({ type: 'chat-message', roomId, text: 'b', n: 2 });
    await bob.ws.waitFor((f) => f.type === 'chat-message' && f.text === 'b');
    ann.ws.kill();
    await ann.ws.waitClose();
    const ann2 = await connect(server, ann.user);
    ann2.send({ type: 'random-resume', roomId, heard: 0 });
    expect(await ann2.waitFor((f) => f.type === 'random-resumed')).toEqual({
      type: 'random-resumed',
      roomId,
      said: 2,
    });
    // Her device sends again what the room lacks, by number: the room had 'b', not 'c'.
    ann2.send({ type: 'chat-message', roomId, text: 'b', n: 2 });
    ann2.send({ type: 'chat-message', roomId, text: 'c', n: 3 });
    // A device from before the numbers: relayed as it comes.
    ann2.send({ type: 'chat-message', roomId, text: 'x' });
    ann2.send({ type: 'chat-message', roomId, text: 'x' });
    await bob.ws.waitFor((f) => f.type === 'chat-message' && f.i === 5);
    await WsClient.settle(50);
    expect(lines(bob.ws)).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['x', 4],
      ['x', 5],
    ]);
    // Bob's own count is his: nothing said yet.
    const bob2 = await connect(server, bob.user);
    bob2.send({ type: 'random-resume', roomId, heard: 3 });
    expect(await bob2.waitFor((f) => f.type === 'random-resumed')).toMatchObject({ said: 0 });
    await bob2.waitFor((f) => f.type === 'chat-message' && f.i === 5);
    expect(lines(bob2)).toEqual([
      ['x', 4],
      ['x', 5],
    ]);
  });

  it('random-resume of a room that is over for the student is answered with its end, `disconnected`', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'audio');
    bob.ws.kill();
    await bob.ws.waitClose();
    await ann.ws.waitFor(endOf(roomId), 0, GRACE_MS * 5);
    const bob2 = await connect(server, bob.user);
    bob2.send({ type: 'random-resume', roomId, heard: 0 });
    expect(await bob2.waitFor(endOf(roomId))).toEqual({ type: 'call-ended', roomId, reason: 'disconnected' });
  });

  it('a student blocked from the room cannot take it back: random-resume is answered with its end', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'chat');
    ann.ws.send({ type: 'random-action', roomId, action: 'block' });
    expect(await ann.ws.waitFor((f) => f.type === 'random-action-result')).toMatchObject({ ok: true });
    await bob.ws.waitFor(endOf(roomId));
    const from = ann.ws.frames.length;
    bob.ws.send({ type: 'random-resume', roomId, heard: 0 });
    bob.ws.send({ type: 'chat-message', roomId, text: 'let me back' });
    await WsClient.settle(150);
    const answers = bob.ws.frames.filter(endOf(roomId));
    expect(answers.at(-1)).toEqual({ type: 'random-chat-ended', roomId, reason: 'disconnected' });
    expect(bob.ws.frames.some((f) => f.type === 'random-resumed')).toBe(false);
    expect(ann.ws.frames.slice(from).filter((f) => f.roomId === roomId)).toEqual([]);
  });

  it('a stranger’s random-resume of someone else’s room is answered as for an unknown id and takes nothing over', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const eve = await student(server, 'Eve');
    const { roomId } = await matched(ann.ws, bob.ws, 'audio');
    eve.ws.send({ type: 'random-resume', roomId, heard: 0 });
    eve.ws.send({ type: 'random-resume', roomId: 'no-such-room', heard: 0 });
    const answers = [await eve.ws.waitFor(endOf(roomId)), await eve.ws.waitFor(endOf('no-such-room'))];
    // The same answer as for a room that never was: a text room's end, whatever the room is.
    expect(answers).toEqual([
      { type: 'random-chat-ended', roomId, reason: 'disconnected' },
      { type: 'random-chat-ended', roomId: 'no-such-room', reason: 'disconnected' },
    ]);
    expect(eve.ws.frames.some((f) => f.type === 'random-resumed')).toBe(false);
    // Bob's side is still Bob's: the offer reaches him, nothing reaches Eve, and nobody heard of an end.
    ann.ws.send({ type: 'call-user', roomId, signalData: sdp('offer') });
    expect(await bob.ws.waitFor((f) => f.type === 'incoming-call')).toMatchObject({ roomId });
    await WsClient.settle(100);
    expect(eve.ws.frames.some((f) => f.type === 'incoming-call')).toBe(false);
    expect([...ann.ws.frames, ...bob.ws.frames].some(endOf(roomId))).toBe(false);
  });

  it('starting again on another device moves the student: the old device hears `other_device`', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const cat = await student(server, 'Cat');
    const { roomId } = await matched(ann.ws, bob.ws, 'audio');
    const annPhone = await connect(server, ann.user);
    queue(annPhone, 'chat');
    expect(await ann.ws.waitFor(endOf(roomId))).toEqual({
      type: 'call-ended',
      roomId,
      reason: 'other_device',
    });
    expect(await bob.ws.waitFor(endOf(roomId))).toMatchObject({ reason: 'left' });
    await annPhone.waitFor((f) => f.type === 'random-queue');
    // A wait moves the same way; then Cat meets Ann on the laptop, not on the phone.
    queue(ann.ws, 'chat');
    const moved = await annPhone.waitFor((f) => f.type === 'random-chat-ended');
    expect(moved.reason).toBe('other_device');
    queue(cat.ws, 'chat');
    await ann.ws.waitFor(isMatch);
    await WsClient.settle(100);
    expect(annPhone.frames.some(isMatch)).toBe(false);
  });
});
