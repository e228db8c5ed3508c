import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestResponse, type TestServer } from './support/test-server';
import { WsClient } from './support/ws-client';
import { confessionEnv } from '../src/modules/confessions/env';
import { audience } from '../src/realtime/audiences';
import {
  announcePosts,
  changesAbout,
  createStudent,
  postAs,
  sendNotices,
  student,
  withNickname,
} from './confessions-helpers';
import { rowOf } from './support/sql';

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
    await sendNotices(server);
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

  it('no change in the log about a confession carries its author’s id, e-mail or name', async () => {
    const author = await withNickname(
      server,
      await createStudent(server, 'Hiddenname', 'Hidden College'),
      'moonlit',
    );
    const fan = await student(server, 'Fan', 'Hidden College');
    const who = (await rowOf<{ email: string; first_name: string; last_name: string }>(
      server,
      'SELECT email, first_name, last_name FROM users WHERE id = ?',
      author.id,
    ))!;
    const id = await postAs(server, author, 'the log must not know me');
    await server.post(`/api/confessions/${id}/react`, { reactionType: 'funny' }, fan.token);
    await server.post(`/api/confessions/${id}/comment`, { content: 'hugs' }, fan.token);
    await server.post(`/api/confessions/${id}/react`, { reactionType: 'relatable' }, author.token);
    await server.post(`/api/confessions/${id}/comment`, { content: 'thanks' }, author.token);
    await announcePosts(server);
    await confessionEnv(server.deps).counts.flush();
    // Before the deletion redacts the announcement, and after.
    const announced = await changesAbout(server, id);
    expect((await server.call('DELETE', `/api/confessions/${id}`, undefined, author.token)).status).toBe(200);

    const changes = [...announced, ...(await changesAbout(server, id))];
    const types = changes.map((c) => c.type);
    for (const type of ['confession_posted', 'confession_mine', 'confession_counts', 'confession_deleted'])
      expect(types, type).toContain(type);
    for (const change of changes) {
      const label = `${change.type} #${change.seq}`;
      expect(change.payload.includes(author.id), `${label} leaks the id: ${change.payload}`).toBe(false);
      expect(change.payload.toLowerCase(), label).not.toContain(who.email.toLowerCase());
      expect(change.payload, label).not.toContain(who.first_name);
      expect(change.payload, label).not.toContain(who.last_name);
      expect(change.payload, label).not.toMatch(
        /"(userId|authorId|author_id|user_id|email|firstName|lastName)"/,
      );
      // Only the author's own devices learn it is theirs; every card change goes to all students alike.
      if (change.type === 'confession_mine') expect(change.audiences).toEqual([audience.user(author.id)]);
      else if (change.type.startsWith('confession_'))
        expect(change.audiences).toEqual([audience.allStudents]);
    }
    const posted = JSON.parse(announced.find((c) => c.type === 'confession_posted')!.payload) as {
      confession: Record<string, unknown>;
    };
    expect(posted.confession).toMatchObject({
      isMine: false,
      myReactions: [],
      comments: [],
      nickname: 'moonlit',
    });
  });
});
