import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FRIEND_MSG,
  FRIEND_SERVER_MSG,
  INVALID_FILTERS_MSG,
  RANDOM,
  RANDOM_MSG,
  REPORT_MSG,
  randomRestrictionMessage,
  type RandomCounts,
} from '@campus/protocol';
import { RANDOM_COUNTS_RATE, RANDOM_JOIN_RATE } from '../src/modules/random';
import { WsClient, type Frame } from './support/ws-client';
import type { TestServer } from './support/test-server';
import { testClock } from './support/test-server';
import { execSql, rowsOf, type SqlParam } from './support/sql';
import {
  closeAll,
  endOf,
  isMatch,
  matched,
  queue,
  setProfile,
  startRandomServer,
  student,
} from './random-helpers';

/**
 * Issue 13, random talk's safety over real sockets: who may queue, blocks, and Add Friend / Block / Report
 * naming the room (the partner's id never reaches the client), and the counts of focused talk.
 */
const clock = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startRandomServer({ now: clock.now });
});
afterEach(closeAll);
afterAll(() => server.close());

/** A friend request over REST, as outside random talk. */
async function friendRequest(from: { user: { token: string } }, to: { user: { id: string } }) {
  const res = await server.post('/api/users/friends/requests', { to: to.user.id }, from.user.token);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

const refusal = (ws: WsClient, from = 0) => ws.waitFor((f) => f.type === 'random-refused', from);
const resultOf = (ws: WsClient, from = 0) => ws.waitFor((f) => f.type === 'random-action-result', from);
const rows = (q: string, ...params: SqlParam[]) => rowsOf<Record<string, unknown>>(server, q, ...params);

describe('who may queue', () => {
  it('refuses an unverified student, an incomplete profile and a restricted account, with the texts', async () => {
    const pending = await student(server, 'Pat', { status: 'pending_verification' });
    queue(pending.ws, 'chat');
    expect(await refusal(pending.ws)).toEqual({
      type: 'random-refused',
      code: 'verification',
      error: RANDOM_MSG.verificationRequired,
    });
    for (const missing of [{ college: null }, { course: null }, { year: null }]) {
      const s = await student(server, 'Inc', { profile: missing });
      queue(s.ws, 'audio');
      expect(await refusal(s.ws)).toEqual({
        type: 'random-refused',
        code: 'profile',
        error: RANDOM_MSG.profileIncomplete,
      });
    }
    const held = await student(server, 'Held');
    await execSql(
      server,
      `INSERT INTO user_restrictions (user_id, random_review_hold, updated_at) VALUES (?, 1, ?)`,
      held.user.id,
      new Date().toISOString(),
    );
    queue(held.ws, 'video');
    expect(await refusal(held.ws)).toEqual({
      type: 'random-refused',
      code: 'restricted',
      error: randomRestrictionMessage({ until: null, reason: 'review' }),
    });
    const until = new Date(clock.now() + 3 * 86_400_000).toISOString();
    const paused = await student(server, 'Paused');
    await execSql(
      server,
      `INSERT INTO user_restrictions (user_id, random_suspended_until, updated_at) VALUES (?, ?, ?)`,
      paused.user.id,
      until,
      new Date().toISOString(),
    );
    queue(paused.ws, 'chat');
    expect((await refusal(paused.ws)).error).toBe(randomRestrictionMessage({ until, reason: 'suspended' }));
    // Refused students never wait: two of them are not matched with each other.
    await WsClient.settle(100);
    for (const s of [pending, held, paused]) {
      expect(s.ws.frames.some((f) => f.type === 'random-queue' || isMatch(f))).toBe(false);
    }
    // Once verified with a complete profile, the same student queues (checked fresh on every try).
    await execSql(server, `UPDATE users SET document_status = 'verified' WHERE id = ?`, pending.user.id);
    queue(pending.ws, 'chat');
    await pending.ws.waitFor((f) => f.type === 'random-queue');
  });

  it('limits queue joins per minute', async () => {
    const s = await student(server, 'Quick');
    for (let i = 0; i < RANDOM_JOIN_RATE.limit; i++) queue(s.ws, 'chat');
    await s.ws.waitFor(() => s.ws.of('random-queue').length === RANDOM_JOIN_RATE.limit);
    queue(s.ws, 'chat');
    expect(await refusal(s.ws)).toMatchObject({ code: 'rateLimited' });
    s.ws.send({ type: 'leave-random-queue' });
    clock.advance(RANDOM_JOIN_RATE.windowMs);
  });
});

describe('blocks', () => {
  it('never matches a blocked pair, whichever blocked; a third student meets one of them', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const cat = await student(server, 'Cat');
    const res = await server.post('/api/users/blocks', { userId: ann.user.id }, bob.user.token);
    expect(res.status).toBe(200);
    queue(ann.ws, 'chat');
    await ann.ws.waitFor((f) => f.type === 'random-queue');
    queue(bob.ws, 'chat');
    await bob.ws.waitFor((f) => f.type === 'random-queue');
    await WsClient.settle(150);
    expect(ann.ws.frames.some(isMatch) || bob.ws.frames.some(isMatch)).toBe(false);
    queue(cat.ws, 'chat');
    const found = await cat.ws.waitFor(isMatch);
    // Ann has waited longest.
    expect(found.partner).toMatchObject({ firstName: 'Ann' });
    expect(bob.ws.frames.some(isMatch)).toBe(false);
  });
});

describe('Add Friend, Block and Report name the room', () => {
  it('add-friend sends the friends module’s request to the partner, during and after the room', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'audio');
    ann.ws.send({ type: 'random-action', roomId, action: 'add-friend' });
    expect(await resultOf(ann.ws)).toEqual({
      type: 'random-action-result',
      roomId,
      action: 'add-friend',
      ok: true,
      message: FRIEND_MSG.sent,
    });
    const incoming = (await server.get('/api/users/friends/requests', bob.user.token)).body as unknown as {
      from: { id: string };
    }[];
    expect(incoming.map((r) => r.from.id)).toEqual([ann.user.id]);
    // After the room: still possible from the post-call screen; asking again sends nothing more and answers
    // as a first request does (REST's "already sent" would name someone asked before the room).
    bob.ws.send({ type: 'end-call', roomId });
    await ann.ws.waitFor(endOf(roomId));
    const from = ann.ws.frames.length;
    ann.ws.send({ type: 'random-action', roomId, action: 'add-friend' });
    expect(await resultOf(ann.ws, from)).toMatchObject({ ok: true, message: FRIEND_MSG.sent });
    // Bob's request crosses Ann's: friends.
    const bobFrom = bob.ws.frames.length;
    bob.ws.send({ type: 'random-action', roomId, action: 'add-friend' });
    expect(await resultOf(bob.ws, bobFrom)).toMatchObject({
      ok: true,
      message: FRIEND_SERVER_MSG.acceptedTheirs,
    });
    // Too late, or not one's room: refused without naming anyone.
    const eve = await student(server, 'Eve');
    eve.ws.send({ type: 'random-action', roomId, action: 'block' });
    expect(await resultOf(eve.ws)).toMatchObject({ ok: false, message: RANDOM_MSG.roomGone });
    clock.advance(RANDOM.postRoomActionsMs);
    const late = ann.ws.frames.length;
    ann.ws.send({ type: 'random-action', roomId, action: 'block' });
    expect(await resultOf(ann.ws, late)).toMatchObject({ ok: false, message: RANDOM_MSG.roomGone });
    expect(await rows('SELECT * FROM blocks WHERE blocker_id IN (?, ?)', ann.user.id, eve.user.id)).toEqual(
      [],
    );
  });

  it('add-friend tells a student nothing of a partner who is already a friend, or was asked before', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const cy = await student(server, 'Cy');
    // Friends already (Ann asked, Bob accepted through REST), and Ann asked Cy outside random talk.
    await friendRequest(ann, bob);
    await friendRequest(bob, ann);
    await friendRequest(ann, cy);
    for (const partner of [bob, cy]) {
      const { roomId } = await matched(ann.ws, partner.ws, 'chat');
      const from = ann.ws.frames.length;
      ann.ws.send({ type: 'random-action', roomId, action: 'add-friend' });
      // What a stranger's first request gets.
      expect(await resultOf(ann.ws, from)).toMatchObject({ ok: true, message: FRIEND_MSG.sent });
      partner.ws.send({ type: 'end-call', roomId });
      await ann.ws.waitFor(endOf(roomId), from);
    }
  });

  it('block keeps the partner unnamed (a random block, no block_changed) and ends the live room', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'video');
    bob.ws.send({ type: 'random-action', roomId, action: 'block' });
    expect(await resultOf(bob.ws)).toMatchObject({ ok: true, message: FRIEND_SERVER_MSG.blocked });
    expect(await ann.ws.waitFor(endOf(roomId))).toMatchObject({ reason: 'left' });
    expect(await bob.ws.waitFor(endOf(roomId))).toMatchObject({ reason: 'you_left' });
    expect(
      await rows('SELECT blocker_id, blocked_id FROM random_blocks WHERE blocker_id = ?', bob.user.id),
    ).toEqual([{ blocker_id: bob.user.id, blocked_id: ann.user.id }]);
    // A friends' block would send Bob Ann's card (id, last name) and list her: neither happens.
    expect(await rows('SELECT 1 FROM blocks WHERE blocker_id = ?', bob.user.id)).toEqual([]);
    await WsClient.settle(100);
    for (const ws of [ann.ws, bob.ws]) expect(JSON.stringify(ws.frames)).not.toContain('block_changed');
    expect(JSON.stringify(bob.ws.frames)).not.toContain(ann.user.id);
    expect((await server.get('/api/users/blocks', bob.user.token)).body).toEqual([]);
    // The room's Add Friend across it sends nothing and answers as a request does.
    ann.ws.send({ type: 'random-action', roomId, action: 'add-friend' });
    expect(await resultOf(ann.ws)).toMatchObject({ ok: true, message: FRIEND_MSG.sent });
    expect(await rows('SELECT 1 FROM friend_requests WHERE from_id = ?', ann.user.id)).toEqual([]);
    // And the matchmaker keeps them apart, long after the rematch cooldown.
    clock.advance(RANDOM.rematchCooldownMs + 1);
    queue(ann.ws, 'chat');
    queue(bob.ws, 'chat');
    await WsClient.settle(300);
    expect(ann.ws.frames.some((f) => f.type === 'random-matched')).toBe(false);
  });

  it('report files the report with the text room’s last messages, blocks unless told not to, ends the room', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'chat');
    const said: Frame[] = [];
    for (const [ws, text] of [
      [ann.ws, 'hi'],
      [bob.ws, 'rude words'],
      [ann.ws, 'please stop'],
    ] as const) {
      ws.send({ type: 'chat-message', roomId, text });
      said.push(
        await (ws === ann.ws ? bob.ws : ann.ws).waitFor((f) => f.type === 'chat-message' && f.text === text),
      );
    }
    ann.ws.send({ type: 'random-action', roomId, action: 'report', reason: 'harassment', note: 'mean' });
    expect(await resultOf(ann.ws)).toMatchObject({ ok: true, action: 'report', message: REPORT_MSG.sent });
    expect(await bob.ws.waitFor(endOf(roomId))).toMatchObject({ type: 'random-chat-ended', reason: 'left' });
    const [report] = await rows('SELECT * FROM reports WHERE reporter_id = ?', ann.user.id);
    expect(report).toMatchObject({
      reported_id: bob.user.id,
      context_kind: 'random_room',
      context_ref: roomId,
      reason: 'harassment',
      note: 'mean',
    });
    expect(JSON.parse(report!.evidence as string)).toEqual({
      messages: [
        { from: 'reporter', text: 'hi', at: said[0]!.timestamp },
        { from: 'reported', text: 'rude words', at: said[1]!.timestamp },
        { from: 'reporter', text: 'please stop', at: said[2]!.timestamp },
      ],
    });
    expect(
      await rows(
        'SELECT 1 FROM random_blocks WHERE blocker_id = ? AND blocked_id = ?',
        ann.user.id,
        bob.user.id,
      ),
    ).toHaveLength(1);
    expect(JSON.stringify(ann.ws.frames)).not.toContain(bob.user.id);

    // Unticked: a report without a block (after the room, for a call room: no transcript).
    const cat = await student(server, 'Cat');
    const dan = await student(server, 'Dan');
    const call = await matched(cat.ws, dan.ws, 'audio');
    dan.ws.send({ type: 'leave-random-room', roomId: call.roomId });
    await cat.ws.waitFor(endOf(call.roomId));
    cat.ws.send({
      type: 'random-action',
      roomId: call.roomId,
      action: 'report',
      reason: 'spam',
      block: false,
    });
    expect(await resultOf(cat.ws)).toMatchObject({ ok: true });
    expect(await rows('SELECT evidence FROM reports WHERE reporter_id = ?', cat.user.id)).toEqual([
      { evidence: null },
    ]);
    expect(await rows('SELECT 1 FROM random_blocks WHERE blocker_id = ?', cat.user.id)).toEqual([]);
  });

  it('keeps only the last messages of a text room as evidence', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'chat');
    const n = RANDOM.evidenceMessages + 5;
    for (let i = 0; i < n; i++) bob.ws.send({ type: 'chat-message', roomId, text: `m${i}` });
    await ann.ws.waitFor((f) => f.type === 'chat-message' && f.text === `m${n - 1}`);
    ann.ws.send({ type: 'random-action', roomId, action: 'report', reason: 'spam' });
    await resultOf(ann.ws);
    const [report] = await rows('SELECT evidence FROM reports WHERE reporter_id = ?', ann.user.id);
    const messages = (JSON.parse(report!.evidence as string) as { messages: { text: string }[] }).messages;
    expect(messages).toHaveLength(RANDOM.evidenceMessages);
    expect(messages[0]!.text).toBe('m5');
    expect(messages.at(-1)!.text).toBe(`m${n - 1}`);
  });
});

describe('GET /api/random/counts', () => {
  it('counts students online who could be matched and satisfy every chosen group, and who waits', async () => {
    const counts = async (filters?: unknown, token = me.user.token) => {
      const q = filters === undefined ? '' : `?filters=${encodeURIComponent(JSON.stringify(filters))}`;
      const res = await server.get(`/api/random/counts${q}`, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as unknown as RandomCounts;
    };
    const me = await student(server, 'Me', { profile: { interests: ['Music'] } });
    const before = await counts();
    const ann = await student(server, 'Ann', { profile: { interests: ['Music', 'Art'], branch: 'CS' } });
    const bob = await student(server, 'Bob', {
      profile: {
        interests: ['Art'],
        branch: 'ECE',
        college: { id: 'c-iit', name: 'IIT Delhi', country: 'IN' },
      },
    });
    await student(server, 'Unverified', { status: 'pending_submission', profile: { interests: ['Music'] } });
    const blocked = await student(server, 'Blocked', { profile: { interests: ['Music'] } });
    expect((await server.post('/api/users/blocks', { userId: me.user.id }, blocked.user.token)).status).toBe(
      200,
    );
    await WsClient.settle(100);
    // Someone who blocked the asker is still counted: leaving them out would tell the asker of the block.
    expect((await counts()).total).toBe(before.total + 3);
    expect(await counts({ interests: ['Music'] })).toMatchObject({ total: 2 });
    expect(await counts({ interests: ['Art'], branch: ['ECE', 'CS'] })).toMatchObject({ total: 2 });
    expect(await counts({ country: ['India'] })).toMatchObject({ total: 1 });
    expect(await counts({ interests: ['Music'], country: ['India'] })).toMatchObject({ total: 0 });
    // A profile save reaches the cache (me_updated): Bob now likes music too.
    const saved = await server.call('PUT', '/api/users/profile', { interests: ['Music'] }, bob.user.token);
    expect(saved.status).toBe(200);
    await bob.ws.waitFor((f) => f.type === 'me_updated');
    expect(await counts({ interests: ['Music'], country: ['India'] })).toMatchObject({ total: 1 });
    // Who waits where: Ann in the video queue (focused on something nobody has).
    queue(ann.ws, 'video', { skillLevel: ['Advanced'] });
    await ann.ws.waitFor((f) => f.type === 'random-queue');
    expect(await counts({ interests: ['Music'] })).toEqual({
      total: 3,
      waiting: { audio: 0, video: 1, chat: 0 },
    });
    // Offline students are not counted.
    bob.ws.close();
    await bob.ws.waitClose();
    await WsClient.settle(100);
    expect(await counts({ interests: ['Music'] })).toMatchObject({ total: 2 });
    await setProfile(server, ann.user.id, {});
  });

  it('refuses bad filters and the signed-out, and is rate limited', async () => {
    const me = await student(server, 'Me');
    expect((await server.get('/api/random/counts')).status).toBe(401);
    for (const bad of ['{', '[]', JSON.stringify({ interests: ['Knitting'] })]) {
      const res = await server.get(`/api/random/counts?filters=${encodeURIComponent(bad)}`, me.user.token);
      expect(res).toMatchObject({ status: 400, body: { error: INVALID_FILTERS_MSG } });
    }
    const statuses: number[] = [];
    for (let i = 0; i < RANDOM_COUNTS_RATE.limit; i++)
      statuses.push((await server.get('/api/random/counts', me.user.token)).status);
    // The three refused above counted too.
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    clock.advance(RANDOM_COUNTS_RATE.windowMs);
    expect((await server.get('/api/random/counts', me.user.token)).status).toBe(200);
  });
});
