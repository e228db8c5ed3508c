import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG, type Confession, type FeedResponse } from '@campus/protocol';
import { moderate } from '../src/lib/moderation';
import { MAX_FEED_OFFSET } from '../src/modules/confessions/feed';
import { startTestServer, type TestServer } from './support/test-server';
import { announcePosts, createStudent, postAs, student, withNickname } from './confessions-helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function feedOf(token: string, query = ''): Promise<FeedResponse> {
  const res = await server.get(`/api/confessions/feed${query}`, token);
  expect(res.status).toBe(200);
  return res.body as unknown as FeedResponse;
}

describe('posting a confession', () => {
  it('stores the censored text even when the client skipped the moderation preview', async () => {
    const author = await student(server, 'Censor');
    const reader = await student(server, 'Reader');
    const raw = 'honestly this fucking exam is shit';
    const expected = moderate(raw).censored_text;
    expect(expected).not.toBe(raw);

    const res = await server.post('/api/confessions/post', { content: raw, emotionTag: '😠' }, author.token);
    expect(res.status).toBe(201);
    expect(res.body.content).toBe(expected);
    await announcePosts(server);
    const seen = (await feedOf(reader.token)).confessions.find((c) => c.id === res.body.id);
    expect(seen?.content).toBe(expected);
    expect(seen?.content).not.toMatch(/fuck|shit/i);
    expect(seen?.emotionTag).toBe('😠');
    expect(seen?.nickname).toBe('Censor-nick');
  });

  it('refuses 1001 characters with the spec message and accepts 1000', async () => {
    const author = await student(server, 'Long');
    const tooLong = await server.post(
      '/api/confessions/post',
      { content: 'a'.repeat(1001), emotionTag: '😐' },
      author.token,
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe(CONFESSION_SERVER_MSG.confessionTooLong);
    const blank = await server.post(
      '/api/confessions/post',
      { content: '   ', emotionTag: '😐' },
      author.token,
    );
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe(CONFESSION_SERVER_MSG.confessionEmpty);
    const fits = await server.post(
      '/api/confessions/post',
      { content: 'a'.repeat(1000), emotionTag: '😐' },
      author.token,
    );
    expect(fits.status).toBe(201);
    expect((fits.body.content as string).length).toBe(1000);
  });

  it('needs a nickname to post, react and comment', async () => {
    const author = await student(server, 'HasNick');
    const id = await postAs(server, author, 'a quiet thought');
    const anon = await createStudent(server, 'NoNick');
    const post = await server.post('/api/confessions/post', { content: 'hi', emotionTag: '😐' }, anon.token);
    expect(post.status).toBe(403);
    expect(post.body.error).toBe(CONFESSION_SERVER_MSG.nicknameRequired);
    const react = await server.post(`/api/confessions/${id}/react`, { reactionType: 'funny' }, anon.token);
    expect(react.status).toBe(403);
    const comment = await server.post(`/api/confessions/${id}/comment`, { content: 'hey' }, anon.token);
    expect(comment.status).toBe(403);
    expect(comment.body.error).toBe(CONFESSION_SERVER_MSG.nicknameRequired);
  });

  it('is idempotent on the client id: a retried post makes one confession', async () => {
    const author = await student(server, 'Retry');
    const id = randomUUID();
    const body = { id, content: 'posted twice?', emotionTag: '😏' };
    const first = await server.post('/api/confessions/post', body, author.token);
    const again = await server.post('/api/confessions/post', body, author.token);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(id);
    const { confessions } = await feedOf(author.token);
    expect(confessions.filter((c: Confession) => c.id === id)).toHaveLength(1);
    const thief = await student(server, 'Thief');
    const stolen = await server.post('/api/confessions/post', body, thief.token);
    expect(stolen.status).toBe(409);
  });

  it('stores the college display name of the author profile (plain or picker object)', async () => {
    const plain = await student(server, 'Plain', 'Plain University');
    const picked = await student(server, 'Picked', {
      id: 'iitb',
      name: 'IIT Bombay',
      country: 'IN',
      city: 'Mumbai',
      stateName: 'Maharashtra',
    });
    const a = await server.post(
      '/api/confessions/post',
      { content: 'from plain', emotionTag: '😐', college: 'Spoofed U' },
      plain.token,
    );
    const b = await server.post(
      '/api/confessions/post',
      { content: 'from picked', emotionTag: '😐' },
      picked.token,
    );
    expect(a.body.college).toBe('Plain University');
    expect(b.body.college).toBe('IIT Bombay');
  });
});

describe('nicknames', () => {
  it('404 until set, then returned; unique ignoring case; a user may change theirs', async () => {
    const ann = await createStudent(server, 'Ann');
    const none = await server.get('/api/confessions/nickname', ann.token);
    expect(none.status).toBe(404);
    expect(none.body.error).toBe(CONFESSION_SERVER_MSG.nicknameNotSet);

    expect((await server.get('/api/confessions/nickname/check/NightOwl', ann.token)).body).toEqual({
      available: true,
    });
    await withNickname(server, ann, 'NightOwl');
    expect((await server.get('/api/confessions/nickname', ann.token)).body).toEqual({ nickname: 'NightOwl' });

    const ben = await createStudent(server, 'Ben');
    expect((await server.get('/api/confessions/nickname/check/nightowl', ben.token)).body).toEqual({
      available: false,
    });
    const taken = await server.post('/api/confessions/nickname/set', { nickname: 'NIGHTOWL' }, ben.token);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(CONFESSION_SERVER_MSG.nicknameTaken);
    expect((await server.get('/api/confessions/nickname', ben.token)).status).toBe(404);

    // Ann's own name is available to Ann (a case change), and she may move to another one.
    expect((await server.get('/api/confessions/nickname/check/nightOWL', ann.token)).body.available).toBe(
      true,
    );
    await withNickname(server, ann, 'DayOwl');
    // Her old one is free again.
    await withNickname(server, ben, 'nightowl');
    expect((await server.get('/api/confessions/nickname', ben.token)).body).toEqual({ nickname: 'nightowl' });
  });

  it('keeps a name that signed a confession or comment with its user after a rename', async () => {
    const ray = await withNickname(server, await createStudent(server, 'Ray'), 'RayOfLight');
    await postAs(server, ray, 'signed with my first name');
    await withNickname(server, ray, 'RayTwo');
    const eve = await createStudent(server, 'Eve');
    // Eve cannot take the name Ray's confession carries, in any case or width.
    for (const name of ['rayoflight', 'ＲａｙＯｆＬｉｇｈｔ']) {
      const check = await server.get(
        `/api/confessions/nickname/check/${encodeURIComponent(name)}`,
        eve.token,
      );
      expect(check.body).toEqual({ available: false });
      const taken = await server.post('/api/confessions/nickname/set', { nickname: name }, eve.token);
      expect(taken.status).toBe(409);
      expect(taken.body.error).toBe(CONFESSION_SERVER_MSG.nicknameTaken);
    }
    // Ray may go back to it.
    await withNickname(server, ray, 'rayoflight');
  });

  it('is 2 to 20 characters', async () => {
    const cam = await createStudent(server, 'Cam');
    for (const nickname of ['x', 'y'.repeat(21), '   ']) {
      const res = await server.post('/api/confessions/nickname/set', { nickname }, cam.token);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(CONFESSION_SERVER_MSG.nicknameLength);
    }
    const check = await server.get('/api/confessions/nickname/check/x', cam.token);
    expect(check.status).toBe(400);
    expect(check.body.error).toBe(CONFESSION_SERVER_MSG.nicknameLength);
    await withNickname(server, cam, 'ab');
    await withNickname(server, cam, 'z'.repeat(20));
  });

  it('answers 401 without a session', async () => {
    expect((await server.get('/api/confessions/nickname')).status).toBe(401);
    expect((await server.get('/api/confessions/feed')).status).toBe(401);
  });
});

describe('deleting', () => {
  it('is for the author only; others get 403 and unknown ids 404', async () => {
    const author = await student(server, 'Deleter');
    const other = await student(server, 'Other');
    const id = await postAs(server, author, 'regret this already');
    await server.post(`/api/confessions/${id}/comment`, { content: 'same' }, other.token);

    const refused = await server.call('DELETE', `/api/confessions/${id}`, undefined, other.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(CONFESSION_SERVER_MSG.notAuthor);
    expect((await feedOf(other.token)).confessions.some((c) => c.id === id)).toBe(true);

    const done = await server.call('DELETE', `/api/confessions/${id}`, undefined, author.token);
    expect(done.status).toBe(200);
    expect((await feedOf(other.token)).confessions.some((c) => c.id === id)).toBe(false);
    const again = await server.call('DELETE', `/api/confessions/${id}`, undefined, author.token);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe(CONFESSION_SERVER_MSG.confessionNotFound);
    const unknown = await server.call('DELETE', `/api/confessions/${randomUUID()}`, undefined, author.token);
    expect(unknown.status).toBe(404);
    // Gone for reactions and comments too.
    expect(
      (await server.post(`/api/confessions/${id}/react`, { reactionType: 'funny' }, other.token)).status,
    ).toBe(404);
    expect((await server.get(`/api/confessions/${id}/comments`, other.token)).status).toBe(404);
  });
});

describe('tab counts', () => {
  it('follow posts and deletions in both tabs without counting the table', async () => {
    const college = `Count College ${randomUUID().slice(0, 6)}`;
    const a = await student(server, 'Counter', college);
    const before = await feedOf(a.token);
    expect(before.collegeTotal).toBe(0);
    const first = await postAs(server, a, 'one');
    await postAs(server, a, 'two');
    const after = await feedOf(a.token);
    expect(after.total).toBe(before.total + 2);
    expect(after.collegeTotal).toBe(2);
    await server.call('DELETE', `/api/confessions/${first}`, undefined, a.token);
    await server.call('DELETE', `/api/confessions/${first}`, undefined, a.token); // 404, counts once
    const deleted = await feedOf(a.token);
    expect(deleted.total).toBe(before.total + 1);
    expect(deleted.collegeTotal).toBe(1);
    // Beyond the deepest page the feed answers empty instead of walking the index.
    expect((await feedOf(a.token, `?page=${MAX_FEED_OFFSET / 10 + 1}&limit=10`)).confessions).toEqual([]);
  });
});

describe('rate limits', () => {
  it('stops a user posting more than 20 confessions an hour', async () => {
    const spammer = await student(server, 'Spammer');
    for (let i = 0; i < 20; i++) await postAs(server, spammer, `post ${i}`);
    const refused = await server.post(
      '/api/confessions/post',
      { content: 'one more', emotionTag: '😐' },
      spammer.token,
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    // Others are not affected.
    await postAs(server, await student(server, 'Calm'), 'still fine');
  });
});
