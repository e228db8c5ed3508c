import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsResponseSchema, reactResponseSchema, type AppNotification } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import { postAs, sendNotices, student, type Student } from './confessions-helpers';
import { rowsOf } from './support/sql';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function react(user: Student, id: string, reactionType: string) {
  const res = await server.post(`/api/confessions/${id}/react`, { reactionType }, user.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return reactResponseSchema.parse(res.body);
}

/** The user's notifications, once the notices waiting for their delay have gone out. */
async function notificationsOf(user: Student): Promise<AppNotification[]> {
  await sendNotices(server);
  const res = await server.get('/api/notifications', user.token);
  expect(res.status).toBe(200);
  return notificationsResponseSchema.parse(res.body).notifications;
}

describe('confession reactions', () => {
  it('toggle per user and type, showing only the viewer’s own', async () => {
    const author = await student(server, 'Toggler');
    const fan = await student(server, 'Fan');
    const id = await postAs(server, author, 'toggle me');

    expect(await react(fan, id, 'funny')).toEqual({
      reactions: { relatable: 0, funny: 1, feelYou: 0, shareWorthy: 0 },
      myReactions: ['funny'],
    });
    expect(await react(fan, id, 'feelYou')).toMatchObject({ myReactions: ['funny', 'feelYou'] });
    expect(await react(author, id, 'funny')).toEqual({
      reactions: { relatable: 0, funny: 2, feelYou: 1, shareWorthy: 0 },
      myReactions: ['funny'],
    });
    // Toggling again takes it back.
    expect(await react(fan, id, 'funny')).toEqual({
      reactions: { relatable: 0, funny: 1, feelYou: 1, shareWorthy: 0 },
      myReactions: ['feelYou'],
    });
    const bad = await server.post(`/api/confessions/${id}/react`, { reactionType: 'love' }, fan.token);
    expect(bad.status).toBe(400);
  });

  it('stay exact under 20 concurrent reactors', async () => {
    const author = await student(server, 'Popular');
    const id = await postAs(server, author, 'everyone react at once');
    const crowd = await Promise.all(Array.from({ length: 20 }, (_, i) => student(server, `Crowd${i}`)));

    const on = await Promise.all(crowd.map((u) => react(u, id, 'relatable')));
    expect(on.every((r) => r.myReactions.includes('relatable'))).toBe(true);
    // Each answer saw its own reaction counted; the last write saw all 20.
    expect(Math.max(...on.map((r) => r.reactions.relatable))).toBe(20);
    expect(new Set(on.map((r) => r.reactions.relatable)).size).toBe(20);

    const half = crowd.slice(0, 10);
    await Promise.all([
      ...half.map((u) => react(u, id, 'relatable')),
      ...crowd.map((u) => react(u, id, 'shareWorthy')),
    ]);
    const feed = await server.get('/api/confessions/feed', author.token);
    const card = (feed.body.confessions as { id: string; reactions: unknown }[]).find((c) => c.id === id);
    expect(card?.reactions).toEqual({ relatable: 10, funny: 0, feelYou: 0, shareWorthy: 20 });
    const stored = await rowsOf(
      server,
      'SELECT reaction_type, count(*) AS n FROM confession_reactions WHERE confession_id = ? GROUP BY 1 ORDER BY 1',
      id,
    );
    expect(stored).toEqual(
      expect.arrayContaining([
        { reaction_type: 'relatable', n: 10 },
        { reaction_type: 'shareWorthy', n: 20 },
      ]),
    );
  });
});

describe('confession notifications', () => {
  it('tell the author about others’ reactions and comments, never about their own', async () => {
    const author = await student(server, 'Notified');
    const other = await student(server, 'Someone');
    const id = await postAs(server, author, 'tell me when people care');

    await react(author, id, 'funny');
    await server.post(`/api/confessions/${id}/comment`, { content: 'talking to myself' }, author.token);
    expect(await notificationsOf(author)).toEqual([]);

    await react(other, id, 'relatable');
    const comment = await server.post(
      `/api/confessions/${id}/comment`,
      { content: 'same here!' },
      other.token,
    );
    expect(comment.status).toBe(201);
    // Taking a reaction back notifies nobody.
    await react(other, id, 'relatable');

    const list = await notificationsOf(author);
    expect(list.map((n) => n.type).sort()).toEqual(['confession_comment', 'confession_reaction']);
    expect(list.every((n) => n.data.confessionId === id && !n.isRead)).toBe(true);
    expect(list.find((n) => n.type === 'confession_comment')?.body).toContain('same here!');
    // Reactions stay anonymous, even in the author's notification.
    expect(list.find((n) => n.type === 'confession_reaction')?.body).not.toContain('Someone-nick');
    expect(await notificationsOf(other)).toEqual([]);
  });

  it('notify once per reactor and type: toggling off and on again does not flood the author', async () => {
    const author = await student(server, 'Flooded');
    const fan = await student(server, 'Toggling');
    const id = await postAs(server, author, 'please do not spam me');
    for (let i = 0; i < 5; i++) {
      await react(fan, id, 'funny'); // on
      await react(fan, id, 'funny'); // off
    }
    await react(fan, id, 'relatable');
    const list = await notificationsOf(author);
    expect(list.map((n) => n.body).sort()).toEqual(
      [
        'Someone reacted “Funny” to your confession.',
        'Someone reacted “Relatable” to your confession.',
      ].sort(),
    );
  });
});
