import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { FriendRequest, UserRef } from '@campus/protocol';
import { writeBlockUser, writeDecideFriendRequest, writeUnblockUser, type SyncClient } from '../src';
import { ack, deliver, queued, refuse } from './support/engine';
import { BO, CY, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

const DI: UserRef = { id: 'user-di', firstName: 'Di', lastName: 'Fox', profilePictureUrl: null };

const request = (from = BO, id = crypto.randomUUID()): FriendRequest => ({
  _id: id,
  id,
  status: 'pending',
  from,
  createdAt: '2026-11-25T10:00:00.000Z',
});

describe('friends in the cache', () => {
  it('applies requests, friendships and blocks as they arrive', async () => {
    const c = (client = makeClient());
    const r = request();
    await deliver(c, [
      { type: 'friend_request_received', request: r },
      { type: 'friend_request_received', request: r }, // a duplicate push
    ]);
    expect(await c.db.friendRequests.toArray()).toEqual([r]);
    await deliver(c, [
      { type: 'friend_request_updated', requestId: r.id, status: 'accepted' },
      { type: 'friendship_changed', friend: BO, added: true },
      { type: 'friendship_changed', friend: CY, added: true },
    ]);
    expect(await c.db.friendRequests.count()).toBe(0);
    expect((await c.db.friends.orderBy('firstName').toArray()).map((f) => f.id)).toEqual([BO.id, CY.id]);
    await deliver(c, [
      { type: 'friendship_changed', friend: CY, added: false },
      { type: 'block_changed', user: CY, blocked: true, at: '2026-11-25T11:00:00.000Z' },
    ]);
    expect(await c.db.friends.toArray()).toEqual([BO]);
    expect(await c.db.blocks.toArray()).toEqual([{ ...CY, blockedAt: '2026-11-25T11:00:00.000Z' }]);
    await deliver(c, [{ type: 'block_changed', user: CY, blocked: false, at: '2026-11-25T12:00:00.000Z' }]);
    expect(await c.db.blocks.count()).toBe(0);
  });

  it('accepts offline at once (queued), and a refusal puts the request back and the friend away', async () => {
    const c = (client = makeClient());
    const r = request();
    await c.db.friendRequests.put(r);
    await c.run(writeDecideFriendRequest, r.id, 'accept');
    expect(await c.db.friendRequests.count()).toBe(0);
    expect(await c.db.friends.toArray()).toEqual([BO]);
    expect(await queued(c)).toMatchObject([
      { type: 'decide_friend_request', requestId: r.id, decision: 'accept' },
    ]);
    await refuse(c, 'Something went wrong.', undefined, 'internal');
    expect(await c.db.friendRequests.toArray()).toEqual([r]);
    expect(await c.db.friends.count()).toBe(0);

    // Answered the other way on another device: the pull removed it, and the refusal leaves it gone.
    await c.run(writeDecideFriendRequest, r.id, 'accept');
    await deliver(c, [{ type: 'friend_request_updated', requestId: r.id, status: 'rejected' }]);
    await refuse(c, 'This friend request was already answered.', undefined, 'conflict');
    expect(await c.db.friendRequests.count()).toBe(0);
    expect(await c.db.friends.count()).toBe(0);

    // A request that no longer exists does not come back.
    await c.run(writeDecideFriendRequest, r.id, 'reject');
    await refuse(c, 'Friend request not found.', undefined, 'notFound');
    expect(await c.db.friendRequests.count()).toBe(0);
  });

  it('blocks a friend at once and puts things back on refusal; unblock likewise; an ack keeps them', async () => {
    const c = (client = makeClient());
    await c.db.friends.put(BO);
    await c.run(writeBlockUser, BO);
    expect(await c.db.friends.count()).toBe(0);
    expect(await c.db.blocks.get(BO.id)).toMatchObject({ id: BO.id });
    await refuse(c, 'User not found.', undefined, 'unknownUser');
    expect(await c.db.friends.toArray()).toEqual([BO]);
    expect(await c.db.blocks.count()).toBe(0);

    await c.run(writeBlockUser, BO);
    await ack(c);
    expect(await c.db.blocks.count()).toBe(1);
    await c.run(writeUnblockUser, BO.id);
    expect(await c.db.blocks.count()).toBe(0);
    await refuse(c, 'Something went wrong.', undefined, 'internal');
    expect(await c.db.blocks.get(BO.id)).toMatchObject({ id: BO.id });
  });

  it('loads friends, requests and blocks through REST, keeping what is still queued here', async () => {
    const pending = request(CY);
    const decided = request(BO);
    const answers: Record<string, unknown> = {
      '/api/users/friends': [{ ...BO, online: true }],
      '/api/users/friends/requests': [pending, decided],
      '/api/users/blocks': [],
    };
    const c = (client = makeClient(undefined, async (input) => {
      const body = answers[new URL(String(input)).pathname];
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    }));
    await c.db.friendRequests.put(decided);
    await c.run(writeDecideFriendRequest, decided.id, 'reject'); // offline: queued
    await c.loadFriends();
    expect(await c.db.friends.toArray()).toEqual([BO]);
    expect((await c.db.friendRequests.toArray()).map((r) => r.id)).toEqual([pending.id]);

    // A block queued here survives a load that does not have it yet, and hides the friend.
    await c.run(writeBlockUser, BO);
    await c.loadFriends();
    expect(await c.db.friends.count()).toBe(0);
    expect((await c.db.blocks.toArray()).map((b) => b.id)).toEqual([BO.id]);
  });

  it('loads every page of friends and blocks, following Link', async () => {
    const link = (path: string) => `<${path}>; rel="next"`;
    const pages: Record<string, { body: unknown; link?: string }> = {
      '/api/users/friends': {
        body: [{ ...BO, online: false }],
        link: link(`/api/users/friends?after=${BO.id}&limit=1`),
      },
      [`/api/users/friends?after=${BO.id}&limit=1`]: { body: [{ ...CY, online: true }] },
      '/api/users/friends/requests': { body: [] },
      '/api/users/blocks': {
        body: [{ user: DI, blockedAt: '2026-11-25T10:00:00.000Z' }],
        link: link(`/api/users/blocks?after=${DI.id}&limit=1`),
      },
      [`/api/users/blocks?after=${DI.id}&limit=1`]: {
        body: [{ user: BO, blockedAt: '2026-11-25T11:00:00.000Z' }],
      },
    };
    const asked: string[] = [];
    const c = (client = makeClient(undefined, async (input) => {
      const url = new URL(String(input));
      asked.push(url.pathname + url.search);
      const page = pages[url.pathname + url.search]!;
      return new Response(JSON.stringify(page.body), {
        headers: { 'content-type': 'application/json', ...(page.link ? { link: page.link } : {}) },
      });
    }));
    await c.loadFriends();
    expect((await c.db.friends.toArray()).map((f) => f.id).sort()).toEqual([BO.id, CY.id].sort());
    expect((await c.db.blocks.toArray()).map((b) => b.id).sort()).toEqual([BO.id, DI.id].sort());
    expect(asked.sort()).toEqual(Object.keys(pages).sort());
  });

  it('keeps what changes applied during the load made, and takes the answers for everything else', async () => {
    // Before the load: a friend and a request the server no longer has (the answers win for those).
    const old = request(BO);
    const fresh = request(CY);
    const c = (client = makeClient(undefined, async (input) => {
      const path = new URL(String(input)).pathname;
      // While the requests are out, Cy's request arrives, Bo becomes a friend and the user blocks Cy
      // (another device) and unfriends her; the answers were read before all that.
      if (path === '/api/users/blocks') {
        await deliver(c, [
          { type: 'friend_request_received', request: fresh },
          { type: 'friendship_changed', friend: BO, added: true },
          { type: 'block_changed', user: CY, blocked: true, at: '2026-11-25T12:00:00.000Z' },
          { type: 'friendship_changed', friend: CY, added: false },
        ]);
      }
      const answers: Record<string, unknown> = {
        '/api/users/friends': [{ ...CY, online: false }],
        '/api/users/friends/requests': [],
        '/api/users/blocks': [],
      };
      return new Response(JSON.stringify(answers[path]), { headers: { 'content-type': 'application/json' } });
    }));
    await deliver(c, [
      { type: 'friend_request_received', request: old },
      { type: 'friendship_changed', friend: DI, added: true },
    ]);
    await c.loadFriends();
    expect((await c.db.friends.toArray()).map((f) => f.id)).toEqual([BO.id]);
    expect((await c.db.friendRequests.toArray()).map((r) => r.id)).toEqual([fresh.id]);
    expect((await c.db.blocks.toArray()).map((b) => b.id)).toEqual([CY.id]);
  });
});
