import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RandomCounts } from '@campus/protocol';
import { befriend, chatted } from './calls-helpers';
import { account, decide, filed, friends } from './reports-helpers';
import { createUser, WsClient, type TestUser } from './support/ws-client';
import { execSql, valueOf } from './support/sql';
import { testClock, type TestServer } from './support/test-server';
import {
  closeAll,
  connect,
  endOf,
  GRACE_MS,
  matched,
  queue,
  startRandomServer,
  student,
} from './random-helpers';

/**
 * Random talk after a review read it as an attacker: what a partner can learn, who can close random talk
 * to someone else, and rooms left behind. Each test failed before its fix.
 */
const clock = testClock();
let server: TestServer;
beforeAll(async () => {
  // The real count floor, not the exact counts of the other random tests.
  server = await startRandomServer({ now: clock.now, config: { randomCountFloor: 3 } });
});
afterEach(closeAll);
afterAll(() => server.close());

/** The user's automatic random-talk hold (0 without a restrictions row). */
const hold = async (userId: string) =>
  (await valueOf<number>(
    server,
    'SELECT random_review_hold FROM user_restrictions WHERE user_id = ?',
    userId,
  )) ?? 0;

describe('what a random partner never learns', () => {
  it('the card carries no picture URL, which is keyed by the user id', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    await execSql(
      server,
      'UPDATE users SET profile_picture_url = ? WHERE id = ?',
      `/files/avatars/${bob.user.id}?v=abc`,
      bob.user.id,
    );
    // The cache reads the profile when the student queues.
    const { a } = await matched(ann.ws, bob.ws, 'chat');
    expect(a.partner).toMatchObject({ firstName: 'Bob', profilePictureUrl: null });
    expect(JSON.stringify(ann.ws.frames)).not.toContain(bob.user.id);
  });
});

describe('counts', () => {
  const counts = async (token: string, filters: unknown) => {
    const res = await server.get(
      `/api/random/counts?filters=${encodeURIComponent(JSON.stringify(filters))}`,
      token,
    );
    return res;
  };

  it('never tell whether one particular student is online: counts under 3 read 0', async () => {
    const me = await student(server, 'Me');
    const college = { id: 'c-rare', name: 'Rare Institute', country: 'IN' };
    const target = await student(server, 'Target', { profile: { college } });
    const res = await counts(me.user.token, { college: ['Rare Institute'] });
    expect(res.status).toBe(200);
    expect((res.body as unknown as RandomCounts).total).toBe(0);
    const others = [
      await student(server, 'Two', { profile: { college } }),
      await student(server, 'Three', { profile: { college } }),
    ];
    await WsClient.settle(100);
    expect(
      ((await counts(me.user.token, { college: ['Rare Institute'] })).body as unknown as RandomCounts).total,
    ).toBe(3);
    expect(target.user.id).not.toBe(others[0]!.user.id);
  });

  it('are for those who may use random talk', async () => {
    const pending = await createUser(server, 'Pending', 'pending_submission');
    expect((await counts(pending.token, {})).status).toBe(403);
  });
});

describe('the automatic hold', () => {
  it('is not set by throwaway accounts reporting from a friend row they made up', async () => {
    const victim = await student(server, 'Victim');
    for (const name of ['Troll1', 'Troll2', 'Troll3']) {
      const troll = await createUser(server, name, 'pending_submission');
      expect((await server.post('/api/users/blocks', { userId: victim.user.id }, troll.token)).status).toBe(
        200,
      );
      // Their own block is no place they share: the report is refused like one about a stranger.
      const res = await server.post(
        '/api/reports',
        { context: { kind: 'friend', userId: victim.user.id }, reason: 'spam', block: false },
        troll.token,
      );
      expect(res.status).toBe(404);
    }
    expect(await hold(victim.user.id)).toBe(0);
  });
});

describe('the automatic hold counts reporters who met the user', () => {
  it('open reports from friend rows do not hold; from chats, by verified students, they do', async () => {
    const report = (reporter: TestUser, victim: TestUser, kind: 'friend' | 'chat') =>
      server.post(
        '/api/reports',
        { context: { kind, userId: victim.id }, reason: 'harassment', block: false },
        reporter.token,
      );
    const fromFriends = await createUser(server, 'Popular');
    for (const name of ['F1', 'F2', 'F3']) {
      const friend = await createUser(server, name);
      await befriend(server, friend, fromFriends);
      expect((await report(friend, fromFriends, 'friend')).status).toBe(201);
    }
    expect(await hold(fromFriends.id)).toBe(0);

    const fromChats = await createUser(server, 'Chatty');
    for (const name of ['C1', 'C2', 'C3']) {
      const peer = await createUser(server, name);
      await chatted(server, peer, fromChats);
      expect((await report(peer, fromChats, 'chat')).status).toBe(201);
    }
    expect(await hold(fromChats.id)).toBe(1);
  });
});

describe('a moderator’s decision', () => {
  it('a suspension of random talk ends a room and a wait at once, not only the next try', async () => {
    const admin = await account(server, 'Admin', 'admin');
    const reporter = await account(server, 'Witness');
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const cat = await student(server, 'Cat');
    const { roomId } = await matched(ann.ws, bob.ws, 'chat');
    queue(cat.ws, 'audio');
    await cat.ws.waitFor((f) => f.type === 'random-queue');

    for (const [user, ws] of [
      [ann.user, ann.ws],
      [cat.user, cat.ws],
    ] as const) {
      await friends(server, reporter, user);
      const id = await filed(server, reporter, { kind: 'friend', userId: user.id }, { block: false });
      const from = ws.frames.length;
      expect((await decide(server, admin, id, { decision: 'suspend_random', days: 7 })).status).toBe(200);
      expect(
        await ws.waitFor(
          (f) => (f.type === 'random-chat-ended' || f.type === 'call-ended') && f.reason === 'restricted',
          from,
        ),
      ).toBeTruthy();
    }
    expect(await bob.ws.waitFor(endOf(roomId))).toMatchObject({ reason: 'left' });
  });
});

describe('rooms left behind', () => {
  it('a student who reconnects without taking the room back (a reload) ends it for the partner', async () => {
    const ann = await student(server, 'Ann');
    const bob = await student(server, 'Bob');
    const { roomId } = await matched(ann.ws, bob.ws, 'chat');
    ann.ws.close();
    await ann.ws.waitClose();
    // A new connection that never speaks of the room.
    await connect(server, ann.user);
    expect(await bob.ws.waitFor(endOf(roomId), 0, GRACE_MS + 3000)).toMatchObject({
      type: 'random-chat-ended',
      reason: 'disconnected',
    });
  });
});
