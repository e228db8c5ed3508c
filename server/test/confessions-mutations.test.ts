import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG, type FeedResponse } from '@campus/protocol';
import { moderate } from '../src/lib/moderation';
import { ConfessionRefusal } from '../src/modules/confessions/errors';
import { applyConfessionMutation } from '../src/modules/confessions/mutations';
import { startTestServer, type TestServer } from './support/test-server';
import { createStudent, postAs, student, type Student } from './confessions-helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const device = { deviceId: 'device-0001', mid: 1 };

async function cardFor(viewer: Student, id: string) {
  const res = await server.get('/api/confessions/feed?limit=50', viewer.token);
  return (res.body as unknown as FeedResponse).confessions.find((c) => c.id === id);
}

/** The outbox frames as the realtime dispatcher will hand them over (wiring is chat/mutations.ts's). */
describe('applyConfessionMutation', () => {
  it('applies reactions as wanted states, so late or repeated frames change nothing more', async () => {
    const author = await student(server, 'MutAuthor');
    const fan = await student(server, 'MutFan');
    const id = await postAs(server, author, 'offline love');
    const frame = {
      type: 'confession_react',
      ...device,
      confessionId: id,
      reactionType: 'funny',
      on: true,
    } as const;
    applyConfessionMutation(server.deps, fan.id, frame);
    applyConfessionMutation(server.deps, fan.id, frame);
    expect((await cardFor(fan, id))?.reactions.funny).toBe(1);
    expect((await cardFor(fan, id))?.myReactions).toEqual(['funny']);
    const notifications = await server.get('/api/notifications', author.token);
    expect((notifications.body.notifications as unknown[]).length).toBe(1);

    applyConfessionMutation(server.deps, fan.id, { ...frame, on: false });
    applyConfessionMutation(server.deps, fan.id, { ...frame, on: false });
    expect((await cardFor(fan, id))?.reactions.funny).toBe(0);
  });

  it('posts and comments once per id, censored, under the nickname', async () => {
    const author = await student(server, 'MutPoster');
    const postId = randomUUID();
    const raw = 'offline and pissed off, this shit again';
    const post = { type: 'confession_post', ...device, id: postId, content: raw, emotionTag: '😠' } as const;
    applyConfessionMutation(server.deps, author.id, post);
    applyConfessionMutation(server.deps, author.id, post);
    const card = await cardFor(author, postId);
    expect(card).toMatchObject({
      content: moderate(raw).censored_text,
      nickname: 'MutPoster-nick',
      isMine: true,
    });

    const commentId = randomUUID();
    const comment = {
      type: 'confession_comment',
      ...device,
      id: commentId,
      confessionId: postId,
      content: '  written on the train  ',
    } as const;
    applyConfessionMutation(server.deps, author.id, comment);
    applyConfessionMutation(server.deps, author.id, comment);
    const after = await cardFor(author, postId);
    expect(after?.commentCount).toBe(1);
    expect(after?.comments.map((c) => c.content)).toEqual(['written on the train']);
  });

  it('refuses with the spec’s messages and writes nothing', async () => {
    const noNick = await createStudent(server, 'MutNoNick');
    const post = {
      type: 'confession_post',
      ...device,
      id: randomUUID(),
      content: 'hello',
      emotionTag: '😐',
    } as const;
    expect(() => applyConfessionMutation(server.deps, noNick.id, post)).toThrow(
      new ConfessionRefusal(403, CONFESSION_SERVER_MSG.nicknameRequired),
    );
    const author = await student(server, 'MutEmpty');
    expect(() => applyConfessionMutation(server.deps, author.id, { ...post, content: '   ' })).toThrow(
      CONFESSION_SERVER_MSG.confessionEmpty,
    );
    const react = {
      type: 'confession_react',
      ...device,
      confessionId: randomUUID(),
      reactionType: 'funny',
      on: true,
    } as const;
    expect(() => applyConfessionMutation(server.deps, author.id, react)).toThrow(
      CONFESSION_SERVER_MSG.confessionNotFound,
    );
    const stored = server.deps.sqlite
      .prepare('SELECT count(*) AS n FROM confessions WHERE id = ?')
      .get(post.id);
    expect(stored).toEqual({ n: 0 });
  });
});
