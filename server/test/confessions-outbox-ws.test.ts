import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG, SERVER_MSG, type FeedResponse } from '@campus/protocol';
import { CONFESSION_RATES } from '../src/modules/confessions/limits';
import { startTestServer, type TestServer } from './support/test-server';
import { WsClient } from './support/ws-client';
import { createStudent, postAs, sendNotices, student } from './confessions-helpers';
import { rowOf } from './support/sql';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Confession writes and notification reads queued offline arrive as outbox frames on /ws. */
describe('confession and notification mutations over the realtime channel', () => {
  it('applies a reaction and a comment once, notifies the author live, and marks the notification read', async () => {
    const author = await student(server, 'WsAuthor');
    const fan = await student(server, 'WsFan');
    const id = await postAs(server, author, 'the library closes too early');
    const authorWs = await WsClient.connect(server, {
      id: author.id,
      token: author.token,
      name: author.name,
    });
    const fanWs = await WsClient.connect(server, { id: fan.id, token: fan.token, name: fan.name });

    const react = { type: 'confession_react', confessionId: id, reactionType: 'relatable', on: true };
    const mid = fanWs.mutate(react);
    fanWs.mutate(react, mid); // a resend after a lost ack
    const commentId = randomUUID();
    fanWs.mutate({ type: 'confession_comment', id: commentId, confessionId: id, content: 'same here' });
    await fanWs.waitFor((f) => f.type === 'ack' && f.mid === mid + 1);

    const feed = (await server.get('/api/confessions/feed?limit=50', fan.token))
      .body as unknown as FeedResponse;
    const card = feed.confessions.find((c) => c.id === id)!;
    expect(card.reactions.relatable).toBe(1);
    expect(card.commentCount).toBe(1);
    expect(card.comments.map((c) => c.id)).toEqual([commentId]);

    await sendNotices(server);
    const created = await authorWs.waitFor(
      (f) =>
        f.type === 'notification_created' &&
        (f.notification as { type: string }).type === 'confession_comment',
    );
    const notificationId = (created.notification as { id: string }).id;
    const readMid = authorWs.mutate({ type: 'mark_notification_read', notificationId });
    await authorWs.waitFor((f) => f.type === 'ack' && f.mid === readMid);
    const list = await server.get('/api/notifications', author.token);
    expect(list.body.unreadCount).toBe(1);
    authorWs.close();
    fanWs.close();
  });

  it('refuses a comment from a student without a nickname with the spec message, and stores nothing', async () => {
    const author = await student(server, 'WsAuthor2');
    const shy = await createStudent(server, 'WsShy');
    const id = await postAs(server, author, 'exam week again');
    const ws = await WsClient.connect(server, { id: shy.id, token: shy.token, name: shy.name });
    const mid = ws.mutate({ type: 'confession_comment', id: randomUUID(), confessionId: id, content: 'hm' });
    const refused = await ws.waitFor((f) => f.type === 'message_error' && f.mid === mid);
    expect(refused).toMatchObject({
      error: CONFESSION_SERVER_MSG.nicknameRequired,
      context: 'confession_comment',
    });
    const feed = (await server.get('/api/confessions/feed?limit=50', author.token))
      .body as unknown as FeedResponse;
    expect(feed.confessions.find((c) => c.id === id)?.commentCount).toBe(0);
    ws.close();
  });

  it('applies the REST per-user limits to outbox posts: the 21st post in an hour is refused and not stored', async () => {
    const poster = await student(server, 'WsFlood');
    const ws = await WsClient.connect(server, { id: poster.id, token: poster.token, name: poster.name });
    const limit = CONFESSION_RATES.post.limit;
    const mids: number[] = [];
    for (let i = 0; i <= limit; i++) {
      mids.push(
        ws.mutate({ type: 'confession_post', id: randomUUID(), content: `post ${i}`, emotionTag: '😊' }),
      );
    }
    const last = mids.at(-1)!;
    const refused = await ws.waitFor((f) => f.type === 'message_error' && f.mid === last);
    expect(refused).toMatchObject({ error: SERVER_MSG.tooManyRequests, context: 'confession_post' });
    expect(ws.of('ack').filter((f) => mids.includes(f.mid as number))).toHaveLength(limit);
    // A resend of the refused mutation gets the same answer.
    const seen = ws.frames.length;
    ws.mutate({ type: 'confession_post', id: randomUUID(), content: 'again', emotionTag: '😊' }, last);
    const again = await ws.waitFor((f) => f.type === 'message_error' && f.mid === last, seen);
    expect(again.error).toBe(SERVER_MSG.tooManyRequests);
    const rows = (await rowOf<{ n: number }>(
      server,
      'SELECT count(*) AS n FROM confessions WHERE author_id = ?',
      poster.id,
    ))!;
    expect(rows.n).toBe(limit);
    ws.close();
  });

  it("deleting a confession deletes its notifications and tells the author's devices", async () => {
    const author = await student(server, 'WsDeleter');
    const fan = await student(server, 'WsDeleteFan');
    const id = await postAs(server, author, 'about to regret this');
    const other = await postAs(server, author, 'this one stays');
    await server.post(`/api/confessions/${id}/react`, { reactionType: 'funny' }, fan.token);
    await server.post(`/api/confessions/${id}/comment`, { content: 'lol' }, fan.token);
    await server.post(`/api/confessions/${other}/comment`, { content: 'nice' }, fan.token);
    await sendNotices(server);
    const before = await server.get('/api/notifications', author.token);
    expect(before.body.unreadCount).toBe(3);
    const aboutDeleted = (before.body.notifications as { id: string; data: { confessionId?: string } }[])
      .filter((n) => n.data.confessionId === id)
      .map((n) => n.id);

    const ws = await WsClient.connect(server, { id: author.id, token: author.token, name: author.name });
    const fanWs = await WsClient.connect(server, { id: fan.id, token: fan.token, name: fan.name });
    expect((await server.call('DELETE', `/api/confessions/${id}`, undefined, author.token)).status).toBe(200);
    const change = await ws.waitFor((f) => f.type === 'notifications_deleted');
    expect((change.notificationIds as string[]).sort()).toEqual(aboutDeleted.sort());
    const after = await server.get('/api/notifications', author.token);
    expect(after.body.unreadCount).toBe(1);
    expect(after.body.notifications).toHaveLength(1);
    await WsClient.settle();
    expect(fanWs.of('notifications_deleted')).toHaveLength(0);
    ws.close();
    fanWs.close();
  });
});
