import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFESSIONS, feedResponseSchema, type FeedResponse } from '@campus/protocol';
import { onPostgres, startTestServer, testClock, type TestServer } from './support/test-server';
import { confessionEnv } from '../src/modules/confessions/env';
import { announcePosts, student, type Student, sendNotices } from './confessions-helpers';

const clock = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
});
afterAll(async () => {
  await server.close();
});

async function feed(viewer: Student, query: string): Promise<FeedResponse> {
  const res = await server.get(`/api/confessions/feed${query}`, viewer.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return feedResponseSchema.parse(res.body);
}

async function post(author: Student, content: string): Promise<string> {
  clock.advance(1000);
  const res = await server.post('/api/confessions/post', { content, emotionTag: '😏' }, author.token);
  expect(res.status).toBe(201);
  // Others see it once announced, a few seconds later.
  await announcePosts(server);
  return res.body.id as string;
}

describe('the confessions feed', () => {
  it('pages newest first, filters by college and counts both tabs', async () => {
    const north = [
      await student(server, 'N1', 'North College'),
      await student(server, 'N2', 'North College'),
    ];
    const south = await student(server, 'S1', { id: 's', name: 'South College', country: 'IN' });
    const posted: { id: string; college: string }[] = [];
    // 16 from North (8 each), 7 from South, interleaved in time.
    for (let i = 0; i < 23; i++) {
      const author = i % 5 === 4 || i >= 19 ? south : north[i % 2]!;
      const college = author === south ? 'South College' : 'North College';
      posted.push({ id: await post(author, `confession number ${i}`), college });
    }
    const newestFirst = [...posted].reverse();
    const northIds = newestFirst.filter((p) => p.college === 'North College').map((p) => p.id);
    expect(northIds).toHaveLength(16);

    const viewer = north[0]!;
    const pages = [await feed(viewer, '?page=1&limit=10'), await feed(viewer, '?page=2&limit=10')];
    const last = await feed(viewer, '?page=3&limit=10');
    expect(pages.map((p) => p.confessions.length)).toEqual([10, 10]);
    expect(last.confessions).toHaveLength(3);
    expect([...pages, last].flatMap((p) => p.confessions.map((c) => c.id))).toEqual(
      newestFirst.map((p) => p.id),
    );
    expect(await feed(viewer, '?page=4')).toMatchObject({ confessions: [], total: 23, collegeTotal: 16 });
    for (const page of [...pages, last]) {
      expect(page.total).toBe(23);
      expect(page.collegeTotal).toBe(16);
    }

    const college1 = await feed(viewer, '?page=1&limit=10&college=North%20College');
    const college2 = await feed(viewer, '?page=2&limit=10&college=North%20College');
    expect([...college1.confessions, ...college2.confessions].map((c) => c.id)).toEqual(northIds);
    expect(college1.confessions.every((c) => c.college === 'North College')).toBe(true);
    expect(college1.collegeTotal).toBe(16);

    // The South student's 'Your College' count is South's.
    const southView = await feed(south, '?college=South%20College');
    expect(southView.collegeTotal).toBe(7);
    expect(southView.confessions.map((c) => c.id)).toEqual(
      newestFirst.filter((p) => p.college === 'South College').map((p) => p.id),
    );
    // Default page size is the spec's 10.
    expect((await feed(viewer, '')).confessions).toHaveLength(CONFESSIONS.feedPageSize);
  });

  it('carries counts, the viewer’s own reactions, comment count and the newest comments on each card', async () => {
    const author = await student(server, 'CardAuthor', 'Card College');
    const a = await student(server, 'CardA');
    const b = await student(server, 'CardB');
    const id = await post(author, 'a card with a lot going on');
    await server.post(`/api/confessions/${id}/react`, { reactionType: 'funny' }, a.token);
    await server.post(`/api/confessions/${id}/react`, { reactionType: 'funny' }, b.token);
    await server.post(`/api/confessions/${id}/react`, { reactionType: 'relatable' }, b.token);
    for (let i = 1; i <= 5; i++) {
      clock.advance(1000);
      const res = await server.post(`/api/confessions/${id}/comment`, { content: `comment ${i}` }, a.token);
      expect(res.status).toBe(201);
    }
    const cardFor = async (viewer: Student) =>
      (await feed(viewer, '?limit=50')).confessions.find((c) => c.id === id)!;

    const seenByA = await cardFor(a);
    expect(seenByA.reactions).toEqual({ relatable: 1, funny: 2, feelYou: 0, shareWorthy: 0 });
    expect(seenByA.myReactions).toEqual(['funny']);
    expect(seenByA.commentCount).toBe(5);
    expect(seenByA.comments.map((c) => c.content)).toEqual(['comment 3', 'comment 4', 'comment 5']);
    expect(seenByA.comments.every((c) => c.isMine && c.nickname === 'CardA-nick')).toBe(true);
    expect(seenByA.isMine).toBe(false);

    const seenByB = await cardFor(b);
    expect(seenByB.myReactions).toEqual(['relatable', 'funny']);
    expect(seenByB.comments.every((c) => !c.isMine)).toBe(true);
    const seenByAuthor = await cardFor(author);
    expect(seenByAuthor.isMine).toBe(true);
    expect(seenByAuthor.myReactions).toEqual([]);

    // The comments panel: newest page first, each page in reading order.
    const page1 = await server.get(`/api/confessions/${id}/comments`, b.token);
    expect(page1.status).toBe(200);
    expect(page1.body.total).toBe(5);
    expect((page1.body.comments as { content: string }[]).map((c) => c.content)).toEqual([
      'comment 1',
      'comment 2',
      'comment 3',
      'comment 4',
      'comment 5',
    ]);
  });

  it('pages comments by the spec page size and refuses empty or over-long ones', async () => {
    const author = await student(server, 'Chatty');
    const id = await post(author, 'ask me anything');
    for (let i = 1; i <= CONFESSIONS.commentsPageSize + 2; i++) {
      clock.advance(10);
      await server.post(`/api/confessions/${id}/comment`, { content: `c${i}` }, author.token);
    }
    const p1 = await server.get(`/api/confessions/${id}/comments?page=1`, author.token);
    const p2 = await server.get(`/api/confessions/${id}/comments?page=2`, author.token);
    const names = (r: typeof p1) => (r.body.comments as { content: string }[]).map((c) => c.content);
    expect(names(p1)).toHaveLength(CONFESSIONS.commentsPageSize);
    expect(names(p1).at(-1)).toBe(`c${CONFESSIONS.commentsPageSize + 2}`);
    expect(names(p2)).toEqual(['c1', 'c2']);

    const tooLong = await server.post(
      `/api/confessions/${id}/comment`,
      { content: 'x'.repeat(501) },
      author.token,
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe('Comment must be at most 500 characters.');
    const empty = await server.post(`/api/confessions/${id}/comment`, { content: ' \n ' }, author.token);
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('Comment cannot be empty.');
  });
});

describe('feed queries', () => {
  it('run the same number of statements for a page of 1 and a page of 10 (no query per card)', async () => {
    const author = await student(server, 'Counter', 'Count College');
    const fan = await student(server, 'CountFan', 'Count College');
    for (let i = 0; i < 10; i++) {
      const id = await post(author, `counted ${i}`);
      await server.post(`/api/confessions/${id}/react`, { reactionType: 'funny' }, fan.token);
      await server.post(`/api/confessions/${id}/comment`, { content: `comment on ${i}` }, fan.token);
    }
    // Nothing else may run while the statements are counted: the posts' announcements, the reactions' and
    // comments' notices and the coalesced counts, each due on a timer of its own, go out now.
    await announcePosts(server);
    await sendNotices(server);
    await confessionEnv(server.deps).counts.flush();
    // The notices' push deliveries look for subscriptions right after their commits: let them finish.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const statements = countStatements(server);
    try {
      const count = async (query: string) => {
        statements.reset();
        const page = await feed(fan, query);
        return { executed: statements.executed(), cards: page.confessions.length };
      };
      const one = await count('?limit=1&college=Count%20College');
      const ten = await count('?limit=10&college=Count%20College');
      expect(one.cards).toBe(1);
      expect(ten.cards).toBe(10);
      expect(one.executed).toBeGreaterThan(0);
      expect(ten.executed).toBe(one.executed);
    } finally {
      statements.restore();
    }
  });
});

/**
 * Counts every statement the server's database runs from now on (Kysely's and the transactor's), until
 * `restore`: on SQLite through better-sqlite3's statement methods, on PostgreSQL through pg's client query.
 */
function countStatements(server: TestServer): { executed(): number; reset(): void; restore(): void } {
  let executed = 0;
  const counted = <Fn extends (...args: never[]) => unknown>(original: Fn): Fn =>
    function (this: unknown, ...args: Parameters<Fn>) {
      executed++;
      return original.apply(this, args);
    } as Fn;
  let restore: () => void;
  if (onPostgres) {
    const proto = pg.Client.prototype;
    const query = proto.query;
    proto.query = counted(query);
    restore = () => {
      proto.query = query;
    };
  } else {
    // Every statement better-sqlite3 runs goes through these prototype methods.
    const proto = Object.getPrototypeOf(server.deps.sqlite.prepare('SELECT 1')) as Record<
      'all' | 'get' | 'run' | 'iterate',
      (...args: never[]) => unknown
    >;
    const originals = { all: proto.all, get: proto.get, run: proto.run, iterate: proto.iterate };
    for (const name of ['all', 'get', 'run', 'iterate'] as const) proto[name] = counted(originals[name]);
    restore = () => Object.assign(proto, originals);
  }
  return {
    executed: () => executed,
    reset: () => {
      executed = 0;
    },
    restore,
  };
}
