import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRIEND_MSG, FRIEND_SERVER_MSG, type FriendRequest } from '@campus/protocol';
import { FRIEND_REQUEST_RATE } from '../src/modules/friends';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/**
 * Issue 12, friends: the request lifecycle over REST with its notification and changes live on every
 * device of both users, crossed and duplicate requests, only the recipient deciding, unfriending, the
 * outbox mutation, the access policy and the rate limit.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const send = (from: TestUser, to: string) => server.post('/api/users/friends/requests', { to }, from.token);
const incoming = async (user: TestUser) => {
  const res = await server.get('/api/users/friends/requests', user.token);
  expect(res.status).toBe(200);
  return res.body as unknown as FriendRequest[];
};
const friendIds = async (user: TestUser) => {
  const res = await server.get('/api/users/friends', user.token);
  expect(res.status).toBe(200);
  return (res.body as unknown as { id: string }[]).map((f) => f.id);
};
const changeOf = (type: string) => (f: Frame) => f.type === type;

describe('friend requests', () => {
  it('send, notification and request live on both devices of the recipient, accept makes friends on every device', async () => {
    const ann = await createUser(server, 'Ann');
    const bob = await createUser(server, 'Bob');
    const [bob1, bob2, ann1] = await Promise.all([
      WsClient.connect(server, bob),
      WsClient.connect(server, bob),
      WsClient.connect(server, ann),
    ]);

    const sent = await send(ann, bob.id);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ message: FRIEND_MSG.sent, outcome: 'sent' });
    for (const device of [bob1, bob2]) {
      const note = await device.waitFor(changeOf('notification_created'));
      expect(note.notification).toMatchObject({ type: 'friend_request', isRead: false, data: {} });
      const received = await device.waitFor(changeOf('friend_request_received'));
      expect(received.request).toMatchObject({ status: 'pending', from: { id: ann.id, firstName: 'Ann' } });
    }
    const list = await incoming(bob);
    expect(list).toHaveLength(1);
    // The sender's public card only: no e-mail.
    expect(list[0]!.from).toEqual({
      id: ann.id,
      firstName: 'Ann',
      lastName: 'Student',
      profilePictureUrl: null,
    });
    expect(list[0]!._id).toBe(list[0]!.id);
    const bell = await server.get('/api/notifications', bob.token);
    expect((bell.body as { unreadCount: number }).unreadCount).toBe(1);

    const accepted = await server.call(
      'PUT',
      `/api/users/friends/requests/${list[0]!.id}/accept`,
      undefined,
      bob.token,
    );
    expect(accepted.status).toBe(200);
    for (const device of [bob1, bob2]) {
      expect((await device.waitFor(changeOf('friendship_changed'))).friend).toMatchObject({ id: ann.id });
      expect(await device.waitFor(changeOf('friend_request_updated'))).toMatchObject({ status: 'accepted' });
    }
    expect(await ann1.waitFor(changeOf('friendship_changed'))).toMatchObject({
      added: true,
      friend: { id: bob.id },
    });
    expect(await incoming(bob)).toEqual([]);
    expect(await friendIds(ann)).toEqual([bob.id]);
    expect(await friendIds(bob)).toEqual([ann.id]);
    // Friends are contacts: each now hears the other's presence without reconnecting.
    const ann2 = await WsClient.connect(server, ann);
    await WsClient.settle();
    expect(ann2.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [bob.id] });

    // Already friends: 409; to oneself 400; an unknown user 404.
    expect((await send(ann, bob.id)).status).toBe(409);
    expect(await send(ann, ann.id)).toMatchObject({ status: 400, body: { error: FRIEND_SERVER_MSG.toSelf } });
    expect((await send(ann, '00000000-0000-0000-0000-000000000000')).status).toBe(404);
    for (const c of [bob1, bob2, ann1, ann2]) c.close();
  });

  it('a duplicate answers the pending one; a crossed request accepts theirs', async () => {
    const cat = await createUser(server, 'Cat');
    const dan = await createUser(server, 'Dan');
    expect((await send(cat, dan.id)).body).toMatchObject({ outcome: 'sent' });
    expect((await send(cat, dan.id)).body).toEqual({
      message: FRIEND_SERVER_MSG.alreadySent,
      outcome: 'alreadySent',
    });
    expect(await incoming(dan)).toHaveLength(1);
    const notes = await server.get('/api/notifications', dan.token);
    expect((notes.body as { notifications: unknown[] }).notifications).toHaveLength(1);

    const c1 = await WsClient.connect(server, cat);
    const crossed = await send(dan, cat.id);
    expect(crossed.body).toEqual({ message: FRIEND_SERVER_MSG.acceptedTheirs, outcome: 'accepted' });
    expect(await c1.waitFor(changeOf('friend_request_updated'))).toMatchObject({ status: 'accepted' });
    await c1.waitFor(changeOf('friendship_changed'));
    expect(await friendIds(cat)).toEqual([dan.id]);
    expect(await incoming(cat)).toEqual([]);
    expect(await incoming(dan)).toEqual([]);
    c1.close();
  });

  it('only the recipient decides (404 to anyone else); reject; unfriend tells both', async () => {
    const eve = await createUser(server, 'Eve');
    const fay = await createUser(server, 'Fay');
    const gus = await createUser(server, 'Gus');
    await send(eve, fay.id);
    const [request] = await incoming(fay);
    for (const who of [eve, gus]) {
      const res = await server.call(
        'PUT',
        `/api/users/friends/requests/${request!.id}/accept`,
        undefined,
        who.token,
      );
      expect(res).toMatchObject({ status: 404, body: { error: FRIEND_SERVER_MSG.requestNotFound } });
    }
    const e1 = await WsClient.connect(server, eve);
    const rejected = await server.call(
      'PUT',
      `/api/users/friends/requests/${request!.id}/reject`,
      undefined,
      fay.token,
    );
    expect(rejected.status).toBe(200);
    expect(await e1.waitFor(changeOf('friend_request_updated'))).toMatchObject({ status: 'rejected' });
    // Deciding again the same way is acknowledged; the other way is a conflict.
    expect(
      (await server.call('PUT', `/api/users/friends/requests/${request!.id}/reject`, undefined, fay.token))
        .status,
    ).toBe(200);
    expect(
      (await server.call('PUT', `/api/users/friends/requests/${request!.id}/accept`, undefined, fay.token))
        .status,
    ).toBe(409);
    expect(await friendIds(eve)).toEqual([]);

    // A new request after a rejection is allowed; accepted, then unfriended.
    await send(eve, fay.id);
    const [again] = await incoming(fay);
    await server.call('PUT', `/api/users/friends/requests/${again!.id}/accept`, undefined, fay.token);
    expect(await friendIds(fay)).toEqual([eve.id]);
    const from = e1.frames.length;
    const removed = await server.call('DELETE', `/api/users/friends/${eve.id}`, undefined, fay.token);
    expect(removed.status).toBe(200);
    expect(await e1.waitFor((f) => f.type === 'friendship_changed' && f.added === false, from)).toMatchObject(
      {
        friend: { id: fay.id },
      },
    );
    expect(await friendIds(eve)).toEqual([]);
    expect((await server.call('DELETE', `/api/users/friends/${eve.id}`, undefined, fay.token)).status).toBe(
      404,
    );
    e1.close();
  });

  it('accepting through the outbox mutation (a device that was offline) works and is acknowledged once', async () => {
    const hal = await createUser(server, 'Hal');
    const ivy = await createUser(server, 'Ivy');
    await send(hal, ivy.id);
    const [request] = await incoming(ivy);
    const ivy1 = await WsClient.connect(server, ivy);
    const mid = ivy1.mutate({ type: 'decide_friend_request', requestId: request!.id, decision: 'accept' });
    await ivy1.waitFor((f) => f.type === 'ack' && f.mid === mid);
    await ivy1.waitFor(changeOf('friendship_changed'));
    expect(await friendIds(hal)).toEqual([ivy.id]);
    // A resend of the same (deviceId, mid) is acknowledged again, nothing more.
    ivy1.mutate({ type: 'decide_friend_request', requestId: request!.id, decision: 'accept' }, mid);
    await ivy1.waitFor((f) => f.type === 'ack' && f.mid === mid && ivy1.of('ack').length === 2);
    // Someone else's request id: refused with notFound.
    const hal1 = await WsClient.connect(server, hal);
    const other = hal1.mutate({ type: 'decide_friend_request', requestId: request!.id, decision: 'reject' });
    expect(await hal1.waitFor((f) => f.type === 'message_error' && f.mid === other)).toMatchObject({
      code: 'notFound',
    });
    for (const c of [ivy1, hal1]) c.close();
  });

  it('a limited account cannot send a request but can answer one', async () => {
    const jo = await createUser(server, 'Jo', 'pending_submission');
    const kim = await createUser(server, 'Kim');
    const refused = await send(jo, kim.id);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('verificationRequired');
    expect(await incoming(kim)).toEqual([]);
    await send(kim, jo.id);
    const [request] = await incoming(jo);
    const ok = await server.call(
      'PUT',
      `/api/users/friends/requests/${request!.id}/accept`,
      undefined,
      jo.token,
    );
    expect(ok.status).toBe(200);
    expect(await friendIds(jo)).toEqual([kim.id]);
  });

  it(`sending is limited to ${FRIEND_REQUEST_RATE.limit} an hour per user`, async () => {
    const lee = await createUser(server, 'Lee');
    const mo = await createUser(server, 'Mo');
    for (let i = 0; i < FRIEND_REQUEST_RATE.limit; i++) expect((await send(lee, mo.id)).status).toBe(200);
    const limited = await send(lee, mo.id);
    expect(limited).toMatchObject({ status: 429, body: { error: FRIEND_SERVER_MSG.tooMany } });
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
