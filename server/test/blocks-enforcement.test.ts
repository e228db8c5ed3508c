import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRIEND_SERVER_MSG, REALTIME_ERRORS, type BlockedUser, type FriendRequest } from '@campus/protocol';
import { BLOCK_RATE } from '../src/modules/friends';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/**
 * Issue 12, blocking: a block either way stops direct messages, friend requests, presence and typing; the
 * blocked user is never told (no change reaches them, and their refusals read the same as the blocker's);
 * unblocking restores messages, presence and typing at once.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ realtime: { onlineCountEveryMs: 50 } });
});
afterAll(() => server.close());

const dm = (client: WsClient, to: TestUser, content = 'hello') =>
  client.mutate({ type: 'send_message', id: randomUUID(), to: to.id, content });
const outcome = (client: WsClient, mid: number) =>
  client.waitFor((f) => (f.type === 'ack' || f.type === 'message_error') && f.mid === mid);
const typingFrom = (user: TestUser) => (f: Frame) => f.type === 'peer_typing' && f.fromUserId === user.id;
const about = (user: TestUser) => (f: Frame) =>
  (f.type === 'user_online' || f.type === 'user_offline') && f.userId === user.id;

/** Two students who have written to each other (contacts), both online. */
async function pair(a: string, b: string) {
  const ann = await createUser(server, a);
  const bob = await createUser(server, b);
  const annWs = await WsClient.connect(server, ann);
  const bobWs = await WsClient.connect(server, bob);
  expect(await outcome(bobWs, dm(bobWs, ann))).toMatchObject({ type: 'ack' });
  expect(await outcome(annWs, dm(annWs, bob))).toMatchObject({ type: 'ack' });
  return { ann, bob, annWs, bobWs };
}

describe('blocking', () => {
  it('limits blocks and unblocks per user (429)', async () => {
    const { ann, bob } = await pair('Cy', 'Di');
    for (let i = 0; i < BLOCK_RATE.limit / 2; i++) {
      expect((await server.post('/api/users/blocks', { userId: bob.id }, ann.token)).status).toBe(200);
      expect((await server.call('DELETE', `/api/users/blocks/${bob.id}`, undefined, ann.token)).status).toBe(
        200,
      );
    }
    expect((await server.post('/api/users/blocks', { userId: bob.id }, ann.token)).status).toBe(429);
  });

  it("a request withdrawn by its sender's block reads as gone to the recipient (404, not 'decided')", async () => {
    const { ann, bob } = await pair('Ana', 'Ben');
    await server.post('/api/users/friends/requests', { to: bob.id }, ann.token);
    const incoming = (await server.get('/api/users/friends/requests', bob.token)).body as unknown as {
      id: string;
    }[];
    expect(incoming).toHaveLength(1);
    expect((await server.post('/api/users/blocks', { userId: bob.id }, ann.token)).status).toBe(200);
    const accept = await server.call(
      'PUT',
      `/api/users/friends/requests/${incoming[0]!.id}/accept`,
      undefined,
      bob.token,
    );
    expect(accept.status).toBe(404);
  });

  it('stops messages, requests, presence and typing both ways, and the blocked user is not told', async () => {
    const { ann, bob, annWs, bobWs } = await pair('Ann', 'Bob');
    // Bob has a request to Ann pending when she blocks him.
    const bobFrom = bobWs.frames.length;
    await server.post('/api/users/friends/requests', { to: ann.id }, bob.token);

    const blocked = await server.post('/api/users/blocks', { userId: bob.id }, ann.token);
    expect(blocked.status).toBe(200);
    expect(await annWs.waitFor((f) => f.type === 'block_changed')).toMatchObject({
      blocked: true,
      user: { id: bob.id, firstName: 'Bob' },
    });
    // Bob's pending request was withdrawn on Ann's side.
    expect(await annWs.waitFor((f) => f.type === 'friend_request_updated')).toMatchObject({
      status: 'cancelled',
    });
    const blocks = (await server.get('/api/users/blocks', ann.token)).body as unknown as BlockedUser[];
    expect(blocks.map((b) => b.user.id)).toEqual([bob.id]);
    expect((await server.get('/api/users/blocks', bob.token)).body).toEqual([]);
    expect((await server.get('/api/users/friends/requests', ann.token)).body).toEqual([]);

    // Messages both ways: refused with the same neutral words.
    for (const [client, to] of [
      [bobWs, ann],
      [annWs, bob],
    ] as const) {
      expect(await outcome(client, dm(client, to))).toMatchObject({
        type: 'message_error',
        code: 'cannotMessage',
        error: REALTIME_ERRORS.cannotMessage,
      });
    }
    // Bob asks again: his request reads as still pending, as it would had Ann just not answered, and
    // reaches nobody.
    const request = await server.post('/api/users/friends/requests', { to: ann.id }, bob.token);
    expect(request.body).toEqual({ message: FRIEND_SERVER_MSG.alreadySent, outcome: 'alreadySent' });
    expect((await server.get('/api/users/friends/requests', ann.token)).body).toEqual([]);
    // And the blocker's own request is not sent either.
    await server.post('/api/users/friends/requests', { to: bob.id }, ann.token);
    expect(
      (await server.get('/api/users/friends/requests', bob.token)).body as unknown as FriendRequest[],
    ).toEqual([]);

    // Typing, live, both ways: dropped.
    bobWs.send({ type: 'typing', roomId: ann.id });
    annWs.send({ type: 'typing', roomId: bob.id });
    // Presence: Bob comes and goes, Ann hears nothing; Ann's new device does not list Bob, Bob's does not list Ann.
    const annFrom = annWs.frames.length;
    const bob2 = await WsClient.connect(server, bob);
    expect(bob2.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [] });
    const ann2 = await WsClient.connect(server, ann);
    expect(ann2.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [] });
    bob2.send({ type: 'join_chat', peerId: ann.id });
    bobWs.close();
    bob2.close();
    await WsClient.settle(250);
    expect(annWs.frames.slice(annFrom).filter(about(bob))).toEqual([]);
    expect(ann2.frames.filter(about(bob))).toEqual([]);
    expect(annWs.frames.filter(typingFrom(bob))).toEqual([]);
    expect(bobWs.frames.filter(typingFrom(ann))).toEqual([]);
    // Ann leaves: Bob's new connection hears nothing of it.
    const bob3 = await WsClient.connect(server, bob);
    annWs.close();
    ann2.close();
    await WsClient.settle(250);
    expect(bob3.frames.filter(about(ann))).toEqual([]);
    // Nor does her profile tell him when she was last here (the directory's contact rule), both ways.
    expect((await server.get(`/api/users/${ann.id}`, bob.token)).body).toMatchObject({ lastActiveAt: null });
    expect((await server.get(`/api/users/${bob.id}`, ann.token)).body).toMatchObject({ lastActiveAt: null });
    // Bob was never told: no block change, and nothing about Ann's side reached him.
    const told = [...bobWs.frames.slice(bobFrom), ...bob2.frames, ...bob3.frames].filter((f) =>
      ['block_changed', 'friend_request_updated', 'friendship_changed'].includes(f.type),
    );
    expect(told).toEqual([]);
    bob3.close();
  });

  it('reactions, read and delivery receipts and last-active times do not cross a block', async () => {
    const cara = await createUser(server, 'Cara');
    const dan = await createUser(server, 'Dan');
    const caraWs = await WsClient.connect(server, cara);
    const danWs = await WsClient.connect(server, dan);
    const fromDan = randomUUID();
    const sent = danWs.mutate({ type: 'send_message', id: fromDan, to: cara.id, content: 'before' });
    expect(await outcome(danWs, sent)).toMatchObject({ type: 'ack' });
    await caraWs.waitFor((f) => f.type === 'receive_message');
    expect((await server.post('/api/users/blocks', { userId: dan.id }, cara.token)).status).toBe(200);

    // Reacting is writing: refused with messaging's neutral words, and nothing reaches Cara.
    const caraFrom = caraWs.frames.length;
    const reaction = danWs.mutate({
      type: 'chat-reaction',
      messageId: fromDan,
      emoji: '🔥',
      toUserId: cara.id,
    });
    expect(await outcome(danWs, reaction)).toMatchObject({ code: 'cannotMessage' });
    // Cara reads Dan's message: her own devices hear it, Dan gets no read tick (she is here now).
    const danFrom = danWs.frames.length;
    const read = caraWs.mutate({
      type: 'mark_messages_as_read',
      messageIds: [fromDan],
      chatPartnerId: dan.id,
    });
    expect(await outcome(caraWs, read)).toMatchObject({ type: 'ack' });
    expect(await caraWs.waitFor((f) => f.type === 'peer_read_messages', caraFrom)).toMatchObject({
      readerId: cara.id,
      status: 'read',
    });
    await WsClient.settle();
    expect(danWs.frames.slice(danFrom).filter((f) => f.type === 'peer_read_messages')).toEqual([]);
    expect(caraWs.frames.slice(caraFrom).filter((f) => f.type === 'chat-reaction')).toEqual([]);

    // Cara leaves (her last-active time is stored): Dan's conversation list and a fresh snapshot do not
    // show it, or polling them would tell when she comes and goes.
    caraWs.close();
    await caraWs.waitClose();
    await WsClient.settle(200);
    const list = (await server.get('/api/conversations', dan.token)).body as unknown as {
      id: string;
      lastActiveAt: string | null;
    }[];
    expect(list.find((item) => item.id === cara.id)).toMatchObject({ lastActiveAt: null });
    const fresh = await WsClient.connect(server, dan);
    const reset = fresh.of('sync_reset')[0]!;
    const users = reset.users as { id: string; lastActiveAt: string | null }[];
    expect(users.find((u) => u.id === cara.id)).toMatchObject({ lastActiveAt: null });
    const conversations = reset.conversations as { id: string; lastActiveAt: string | null }[];
    expect(conversations.find((c) => c.id === cara.id)).toMatchObject({ lastActiveAt: null });
    for (const ws of [danWs, fresh]) ws.close();
  });

  it('blocking through the outbox ends a friendship (told to the blocker only); unblocking restores messages, presence and typing at once', async () => {
    const { ann, bob, annWs, bobWs } = await pair('Cai', 'Dee');
    await server.post('/api/users/friends/requests', { to: bob.id }, ann.token);
    const [request] = (await server.get('/api/users/friends/requests', bob.token))
      .body as unknown as FriendRequest[];
    await server.call('PUT', `/api/users/friends/requests/${request!.id}/accept`, undefined, bob.token);
    await bobWs.waitFor((f) => f.type === 'friendship_changed');
    const bobFrom = bobWs.frames.length;

    const mid = annWs.mutate({ type: 'block_user', userId: bob.id });
    expect(await outcome(annWs, mid)).toMatchObject({ type: 'ack' });
    expect(await annWs.waitFor((f) => f.type === 'friendship_changed' && f.added === false)).toMatchObject({
      friend: { id: bob.id },
    });
    expect((await server.get('/api/users/friends', ann.token)).body).toEqual([]);
    expect(await outcome(bobWs, dm(bobWs, ann))).toMatchObject({ code: 'cannotMessage' });
    await WsClient.settle();
    const changes = ['block_changed', 'friendship_changed', 'friend_request_updated'];
    expect(bobWs.frames.slice(bobFrom).filter((f) => changes.includes(f.type))).toEqual([]);

    const [annAt, bobAt] = [annWs.frames.length, bobWs.frames.length];
    const unblock = annWs.mutate({ type: 'unblock_user', userId: bob.id });
    expect(await outcome(annWs, unblock)).toMatchObject({ type: 'ack' });
    expect(await annWs.waitFor((f) => f.type === 'block_changed' && f.blocked === false)).toBeTruthy();
    // Contacts again on the open connections: each hears the other is online, and typing flows.
    await annWs.waitFor((f) => f.type === 'user_online' && f.userId === bob.id, annAt);
    await bobWs.waitFor((f) => f.type === 'user_online' && f.userId === ann.id, bobAt);
    bobWs.send({ type: 'typing', roomId: ann.id });
    await annWs.waitFor(typingFrom(bob), annAt);
    expect(await outcome(bobWs, dm(bobWs, ann))).toMatchObject({ type: 'ack' });
    expect((await server.get('/api/users/blocks', ann.token)).body).toEqual([]);
    // And on a new sign-in.
    const ann2 = await WsClient.connect(server, ann);
    expect(ann2.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [bob.id] });
    annWs.close();
    ann2.close();
    await bobWs.waitFor((f) => f.type === 'user_offline' && f.userId === ann.id);
    expect((await server.get(`/api/users/${ann.id}`, bob.token)).body).toMatchObject({
      lastActiveAt: expect.any(String) as unknown,
    });
    bobWs.close();
  });

  it('a blocked sender asking twice is answered as an unblocked one is; the blocker sees nothing until the block is lifted', async () => {
    const gia = await createUser(server, 'Gia');
    const hal = await createUser(server, 'Hal');
    const ivy = await createUser(server, 'Ivy');
    const send = (from: TestUser, to: TestUser) =>
      server.post('/api/users/friends/requests', { to: to.id }, from.token).then((r) => r.body);
    const incomingFrom = async (user: TestUser) =>
      ((await server.get('/api/users/friends/requests', user.token)).body as unknown as FriendRequest[]).map(
        (r) => r.from.id,
      );
    // An unblocked pair, for reference: sent, then already sent.
    const unblocked = [await send(ivy, gia), await send(ivy, gia)];
    expect(unblocked.map((b) => b.outcome)).toEqual(['sent', 'alreadySent']);

    expect((await server.post('/api/users/blocks', { userId: hal.id }, gia.token)).status).toBe(200);
    const giaWs = await WsClient.connect(server, gia);
    const giaFrom = giaWs.frames.length;
    expect([await send(hal, gia), await send(hal, gia)]).toEqual(unblocked);
    // Gia sees none of it: no request, no change, no notification.
    expect(await incomingFrom(gia)).toEqual([ivy.id]);
    await WsClient.settle();
    const told = giaWs.frames
      .slice(giaFrom)
      .filter((f) => f.type === 'friend_request_received' || f.type === 'notification_created');
    expect(told).toEqual([]);

    // The block lifted, Hal's request reaches her as if she had never blocked, once; to him it is still pending.
    expect((await server.call('DELETE', `/api/users/blocks/${hal.id}`, undefined, gia.token)).status).toBe(
      200,
    );
    const received = await giaWs.waitFor((f) => f.type === 'friend_request_received', giaFrom);
    expect(received.request).toMatchObject({ status: 'pending', from: { id: hal.id } });
    expect(await giaWs.waitFor((f) => f.type === 'notification_created', giaFrom)).toMatchObject({
      notification: { type: 'friend_request' },
    });
    expect((await incomingFrom(gia)).sort()).toEqual([hal.id, ivy.id].sort());
    expect(await send(hal, gia)).toEqual(unblocked[1]);

    // Blocking him again withdraws it from her view and holds it for him, still one request.
    await server.post('/api/users/blocks', { userId: hal.id }, gia.token);
    expect(await incomingFrom(gia)).toEqual([ivy.id]);
    expect(await send(hal, gia)).toEqual(unblocked[1]);
    // Hal blocking her withdraws his own request, as a block does; after he lifts his, asking is new again.
    await server.post('/api/users/blocks', { userId: gia.id }, hal.token);
    await server.call('DELETE', `/api/users/blocks/${gia.id}`, undefined, hal.token);
    expect([await send(hal, gia), await send(hal, gia)]).toEqual(unblocked);
    expect(await incomingFrom(gia)).toEqual([ivy.id]);
    giaWs.close();
  });

  it('blocks and unblocks through the outbox charge the same per-user budget as REST, refused rateLimited', async () => {
    const { ann, bob, annWs } = await pair('Jo', 'Kit');
    // All but one of the budget over REST (ending blocked), the last through the outbox.
    for (let i = 0; i < BLOCK_RATE.limit - 1; i++) {
      const res =
        i % 2 === 0
          ? await server.post('/api/users/blocks', { userId: bob.id }, ann.token)
          : await server.call('DELETE', `/api/users/blocks/${bob.id}`, undefined, ann.token);
      expect(res.status).toBe(200);
    }
    expect(await outcome(annWs, annWs.mutate({ type: 'unblock_user', userId: bob.id }))).toMatchObject({
      type: 'ack',
    });
    expect(await outcome(annWs, annWs.mutate({ type: 'block_user', userId: bob.id }))).toMatchObject({
      type: 'message_error',
      code: 'rateLimited',
    });
    expect((await server.get('/api/users/blocks', ann.token)).body).toEqual([]);
    expect((await server.post('/api/users/blocks', { userId: bob.id }, ann.token)).status).toBe(429);
  });

  it('a limited account may block; blocking oneself is 400, an unknown user 404', async () => {
    const eli = await createUser(server, 'Eli', 'pending_submission');
    const fin = await createUser(server, 'Fin');
    expect((await server.post('/api/users/blocks', { userId: fin.id }, eli.token)).status).toBe(200);
    expect((await server.post('/api/users/blocks', { userId: eli.id }, eli.token)).status).toBe(400);
    const unknown = await server.post('/api/users/blocks', { userId: randomUUID() }, eli.token);
    expect(unknown.status).toBe(404);
    expect((await server.call('DELETE', `/api/users/blocks/${fin.id}`, undefined, eli.token)).status).toBe(
      200,
    );
  });
});
