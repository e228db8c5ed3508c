import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG, type FeedResponse } from '@campus/protocol';
import { moderate } from '../src/lib/moderation';
import { Refusal } from '../src/lib/refusal';
import { confessionMutationHandlers } from '../src/modules/confessions/sync';
import { startTestServer, type TestServer } from './support/test-server';
import {
  applyConfessionFrame,
  createStudent,
  postAs,
  sendNotices,
  student,
  type Student,
} from './confessions-helpers';
import { rowOf } from './support/sql';

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

/** The outbox frames as the engine's dispatcher hands them over, each in its own commit. */
describe('confessionMutationHandlers', () => {
  const applyConfessionMutation = (userId: string, frame: Parameters<typeof applyConfessionFrame>[2]) =>
    applyConfessionFrame(server, confessionMutationHandlers(server.deps), frame, userId);

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
    await applyConfessionMutation(fan.id, frame);
    await applyConfessionMutation(fan.id, frame);
    expect((await cardFor(fan, id))?.reactions.funny).toBe(1);
    expect((await cardFor(fan, id))?.myReactions).toEqual(['funny']);
    await sendNotices(server);
    const notifications = await server.get('/api/notifications', author.token);
    expect((notifications.body.notifications as unknown[]).length).toBe(1);

    await applyConfessionMutation(fan.id, { ...frame, on: false });
    await applyConfessionMutation(fan.id, { ...frame, on: false });
    expect((await cardFor(fan, id))?.reactions.funny).toBe(0);
  });

  it('posts and comments once per id, censored, under the nickname', async () => {
    const author = await student(server, 'MutPoster');
    const postId = randomUUID();
    const raw = 'offline and pissed off, this shit again';
    const post = { type: 'confession_post', ...device, id: postId, content: raw, emotionTag: '😠' } as const;
    await applyConfessionMutation(author.id, post);
    await applyConfessionMutation(author.id, post);
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
    await applyConfessionMutation(author.id, comment);
    await applyConfessionMutation(author.id, comment);
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
    const refused = applyConfessionMutation(noNick.id, post);
    await expect(refused).rejects.toThrow(Refusal);
    await expect(refused).rejects.toMatchObject({
      code: 'forbidden',
      status: 403,
      message: CONFESSION_SERVER_MSG.nicknameRequired,
    });
    const author = await student(server, 'MutEmpty');
    await expect(applyConfessionMutation(author.id, { ...post, content: '   ' })).rejects.toThrow(
      CONFESSION_SERVER_MSG.confessionEmpty,
    );
    const react = {
      type: 'confession_react',
      ...device,
      confessionId: randomUUID(),
      reactionType: 'funny',
      on: true,
    } as const;
    await expect(applyConfessionMutation(author.id, react)).rejects.toThrow(
      CONFESSION_SERVER_MSG.confessionNotFound,
    );
    const stored = await rowOf(server, 'SELECT count(*) AS n FROM confessions WHERE id = ?', post.id);
    expect(stored).toEqual({ n: 0 });
  });

  it('deletes for the author only: anyone else is refused and the card stays', async () => {
    const author = await student(server, 'MutDeleter');
    const other = await student(server, 'MutNotAuthor');
    const id = await postAs(server, author, 'gone soon');
    const del = { type: 'confession_delete', ...device, confessionId: id } as const;
    await expect(applyConfessionMutation(other.id, del)).rejects.toMatchObject({
      code: 'forbidden',
      status: 403,
      message: CONFESSION_SERVER_MSG.notAuthor,
    });
    expect(await cardFor(other, id)).toBeDefined();
    await applyConfessionMutation(author.id, del);
    expect(await cardFor(other, id)).toBeUndefined();
    await expect(applyConfessionMutation(author.id, del)).rejects.toMatchObject({
      code: 'notFound',
      status: 404,
      message: CONFESSION_SERVER_MSG.confessionNotFound,
    });
  });
});
