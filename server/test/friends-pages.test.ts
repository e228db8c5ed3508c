import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blocksResponseSchema,
  DESKTOP_ORIGIN,
  FRIENDS_PAGE_MAX,
  friendsNextPath,
  friendsResponseSchema,
} from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, type TestUser } from './support/ws-client';

/**
 * Issue 12, the friends and blocks lists in keyset pages: an array without parameters (the spec's answer),
 * `?after=&limit=` pages in user-id order, and `Link: <…>; rel="next"` while more follow.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Every page of a list, following `Link` from the first, and the links seen. */
async function allPages(path: string, user: TestUser) {
  const pages: { id: string }[][] = [];
  const links: (string | null)[] = [];
  let next: string | undefined = path;
  while (next) {
    const res = await server.get(next, user.token);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    pages.push(res.body as unknown as { id: string }[]);
    links.push(res.headers.get('link'));
    next = friendsNextPath(res.headers.get('link'));
  }
  return { pages, links };
}

describe('friends and blocks in pages', () => {
  it('pages friends (either column of the pair) and blocks by id, with a Link while more follow', async () => {
    const me = await createUser(server, 'Pat');
    const others = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((n) => createUser(server, `Fr${n}`)));
    const at = new Date().toISOString();
    // Friendships stored ordered: some with me as user_a, some as user_b.
    await server.deps.db
      .insertInto('friendships')
      .values(
        others.map((o) => ({
          user_a: o.id < me.id ? o.id : me.id,
          user_b: o.id < me.id ? me.id : o.id,
          created_at: at,
        })),
      )
      .execute();
    const ids = others.map((o) => o.id).sort();

    // No parameters: the whole list (under a page) as the spec's array, and no Link.
    const first = await server.get('/api/users/friends', me.token);
    expect(friendsResponseSchema.parse(first.body).map((f) => f.id)).toEqual(ids);
    expect(first.headers.get('link')).toBeNull();

    const friends = await allPages('/api/users/friends?limit=2', me);
    expect(friends.pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(friends.pages.flat().map((f) => f.id)).toEqual(ids);
    expect(friends.links[0]).toBe(
      `</api/users/friends?after=${encodeURIComponent(ids[1]!)}&limit=2>; rel="next"`,
    );
    expect(friends.links[2]).toBeNull();
    // An exact multiple of the page: the last full page has no Link, so no empty page is asked for.
    expect((await allPages('/api/users/friends?limit=5', me)).pages.map((p) => p.length)).toEqual([5]);
    // A larger limit is lowered to the maximum; a bad one is refused.
    const big = await server.get(`/api/users/friends?limit=${FRIENDS_PAGE_MAX * 10}`, me.token);
    expect(big.status).toBe(200);
    expect((await server.get('/api/users/friends?limit=0', me.token)).status).toBe(400);

    for (const o of others.slice(0, 3))
      expect((await server.post('/api/users/blocks', { userId: o.id }, me.token)).status).toBe(200);
    const blocked = others
      .slice(0, 3)
      .map((o) => o.id)
      .sort();
    const blocks = await allPages('/api/users/blocks?limit=2', me);
    expect(blocks.pages.map((p) => p.length)).toEqual([2, 1]);
    expect(blocksResponseSchema.parse(blocks.pages.flat()).map((b) => b.user.id)).toEqual(blocked);
    const plain = await server.get('/api/users/blocks', me.token);
    expect(blocksResponseSchema.parse(plain.body).map((b) => b.user.id)).toEqual(blocked);
    expect(plain.headers.get('link')).toBeNull();
  });

  it('the desktop app may read the Link header across origins', async () => {
    const me = await createUser(server, 'Quin');
    const res = await fetch(`${server.url}/api/users/friends`, {
      headers: { authorization: `Bearer ${me.token}`, origin: DESKTOP_ORIGIN },
    });
    expect(res.headers.get('access-control-expose-headers')).toMatch(/\bLink\b/i);
  });
});
