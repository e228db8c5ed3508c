import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestResponse, type TestServer } from './support/test-server';
import { WsClient } from './support/ws-client';
import { postAs, student } from './confessions-helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** The serialized body must not contain any of these ids (nor e-mail-like author data). */
function expectNoIds(label: string, res: TestResponse | { body: unknown }, ids: string[]) {
  const text = JSON.stringify(res.body);
  for (const id of ids) expect(text.includes(id), `${label} leaks ${id}: ${text}`).toBe(false);
  expect(text, label).not.toMatch(/"(userId|authorId|author_id|user_id|email)"/);
}

describe('anonymity', () => {
  it('no confession or notification route shows a user the id of another author, reactor or commenter', async () => {
    const author = await student(server, 'Secret', 'Hidden College');
    const other = await student(server, 'Curious', 'Hidden College');
    const authorSocket = await WsClient.connect(server, author);
    const id = await postAs(server, author, 'nobody may know this was me');
    await server.post(`/api/confessions/${id}/comment`, { content: 'author replies' }, author.token);
    await server.post(`/api/confessions/${id}/react`, { reactionType: 'funny' }, author.token);

    // Everything the other student can call, with the author's id nowhere in it.
    const seenByOther: [string, TestResponse][] = [
      ['feed', await server.get('/api/confessions/feed', other.token)],
      ['college feed', await server.get('/api/confessions/feed?college=Hidden%20College', other.token)],
      [
        'react',
        await server.post(`/api/confessions/${id}/react`, { reactionType: 'relatable' }, other.token),
      ],
      [
        'comment',
        await server.post(`/api/confessions/${id}/comment`, { content: 'who are you?' }, other.token),
      ],
      ['comments', await server.get(`/api/confessions/${id}/comments`, other.token)],
      ['nickname', await server.get('/api/confessions/nickname', other.token)],
      ['check', await server.get('/api/confessions/nickname/check/Secret-nick', other.token)],
      [
        'set taken',
        await server.post('/api/confessions/nickname/set', { nickname: 'secret-NICK' }, other.token),
      ],
      ['delete refused', await server.call('DELETE', `/api/confessions/${id}`, undefined, other.token)],
      ['notifications', await server.get('/api/notifications', other.token)],
    ];
    const card = (seenByOther[0]![1].body.confessions as { id: string }[]).find((c) => c.id === id);
    expect(card).toMatchObject({ isMine: false, nickname: 'Secret-nick', myReactions: [] });
    expect(seenByOther[3]![1].status).toBe(201);
    expect(seenByOther[7]![1].status).toBe(409);
    expect(seenByOther[8]![1].status).toBe(403);
    for (const [label, res] of seenByOther) expectNoIds(label, res, [author.id]);

    // And the author learns nothing of who reacted or commented: not in the feed, the comments,
    // the notifications, nor the live notification frames.
    const seenByAuthor: [string, TestResponse][] = [
      ['author feed', await server.get('/api/confessions/feed', author.token)],
      ['author comments', await server.get(`/api/confessions/${id}/comments`, author.token)],
      ['author notifications', await server.get('/api/notifications', author.token)],
    ];
    expect((seenByAuthor[2]![1].body.notifications as unknown[]).length).toBe(2);
    for (const [label, res] of seenByAuthor) expectNoIds(label, res, [other.id]);
    await authorSocket.waitFor((f) => f.type === 'notification_created');
    await WsClient.settle();
    const frames = authorSocket.frames.filter((f) => f.type === 'notification_created');
    expect(frames.length).toBe(2);
    expectNoIds('live notifications', { body: frames }, [other.id]);
    authorSocket.close();
  });
});
