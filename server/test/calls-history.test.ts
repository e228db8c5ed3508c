import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL, CALL_MSG, type CallLog, type CallLogStatus } from '@campus/protocol';
import {
  answer,
  befriend,
  endOf,
  frameOf,
  hangUp,
  logsOf,
  offer,
  online,
  reject,
  startCallServer,
} from './calls-helpers';
import { testClock, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

/**
 * Issue 12, call history and ICE configuration: GET /api/users/call-logs lists a user's calls as caller and
 * callee, newest first in keyset pages, with both parties' cards; GET /api/rtc/config hands out TURN REST
 * credentials, and no server at all without TURN_URLS.
 */
const clock = testClock();
/**
 * Longer than calls-helpers' 400 ms: the cancelled call below must be hung up before it rings out, and on a
 * loaded machine the hang-up reached the server after 400 ms once (logged no_answer).
 */
const RING_MS = 2_000;
let server: TestServer;
beforeAll(async () => {
  server = await startCallServer({ now: clock.now, config: { callRingTimeoutMs: RING_MS } });
});
afterAll(() => server.close());

describe('GET /api/users/call-logs', () => {
  let ann: TestUser;
  let bob: TestUser;
  let annWs: WsClient;
  let bobWs: WsClient;
  /** Oldest first: who called, and how it ended. */
  const placed: [caller: 'ann' | 'bob', status: CallLogStatus][] = [];

  /** One call from `from` to `to`, ended the way `end` does; logged before the next one starts. */
  async function place(
    caller: 'ann' | 'bob',
    status: CallLogStatus,
    end: (id: string, fromWs: WsClient, toWs: WsClient, to: TestUser, from: TestUser) => Promise<void>,
  ) {
    clock.advance(60_000);
    const [from, fromWs, to, toWs] = caller === 'ann' ? [ann, annWs, bob, bobWs] : [bob, bobWs, ann, annWs];
    const id = offer(fromWs, to, 'video');
    await end(id, fromWs, toWs, to, from);
    // This call's own log: the caller got every earlier call's log too, one each in order, but the last
    // one's may still have been on its way (it waited only as the other party). Counting from when this
    // call started took that late log for this call's; the page read next then missed this call wherever
    // its log commits a little after the ending frames (PostgreSQL).
    await fromWs.waitFor(() => fromWs.of('call_logged').length > placed.length);
    expect(fromWs.of('call_logged')[placed.length]).toMatchObject({ log: { status } });
    placed.push([caller, status]);
  }

  const answered = async (id: string, fromWs: WsClient, toWs: WsClient, to: TestUser, from: TestUser) => {
    await toWs.waitFor(frameOf('call:offer', id));
    answer(toWs, id, from);
    await fromWs.waitFor(frameOf('call:answer', id));
    clock.advance(42_000);
    void to;
  };

  beforeAll(async () => {
    ({
      users: [ann, bob],
      sockets: [annWs, bobWs],
    } = await online(server, 'Ann', 'Bob'));
    await befriend(server, ann, bob);
    await place('ann', 'completed', async (id, fromWs, toWs, to, from) => {
      await answered(id, fromWs, toWs, to, from);
      hangUp(fromWs, id, to);
    });
    await place('bob', 'rejected', async (id, _fromWs, toWs, _to, from) => {
      await toWs.waitFor(frameOf('call:offer', id));
      reject(toWs, id, from);
    });
    await place('ann', 'missed', async (id, fromWs, _toWs, to) => {
      await fromWs.waitFor(frameOf('call:ringing', id));
      hangUp(fromWs, id, to);
    });
    await place('ann', 'no_answer', async (id, fromWs) => {
      await fromWs.waitFor(endOf(id), 0, RING_MS * 5);
    });
    await place('bob', 'failed', async (id, fromWs, toWs, to, from) => {
      await answered(id, fromWs, toWs, to, from);
      hangUp(toWs, id, from, 'failed');
    });
    bobWs.close();
    await bobWs.waitClose();
    await place('ann', 'cancelled', async (id, fromWs, _toWs, to) => {
      await WsClient.settle(30);
      hangUp(fromWs, id, to);
    });
  });

  const expected = () =>
    [...placed].reverse().map(([caller, status]) => ({
      status,
      callType: 'video',
      caller: caller === 'ann' ? 'Ann' : 'Bob',
      callee: caller === 'ann' ? 'Bob' : 'Ann',
      duration: status === 'completed' || status === 'failed' ? 42 : 0,
    }));
  const shape = (logs: CallLog[]) =>
    logs.map((l) => ({
      status: l.status,
      callType: l.callType,
      caller: l.caller.firstName,
      callee: l.callee.firstName,
      duration: l.duration,
    }));

  it('lists every outcome, as caller and as callee, newest first, for both parties', async () => {
    expect(placed).toHaveLength(6);
    for (const user of [ann, bob]) {
      const page = await logsOf(server, user);
      expect(shape(page.logs), user.name).toEqual(expected());
      expect(page.nextBefore).toBeNull();
      const starts = page.logs.map((l) => Date.parse(l.startedAt));
      expect(starts).toEqual([...starts].sort((a, b) => b - a));
      expect(page.logs[0]!.caller).toEqual({
        id: ann.id,
        firstName: 'Ann',
        lastName: 'Student',
        profilePictureUrl: null,
      });
    }
  });

  it('pages with an opaque cursor until the end', async () => {
    const first = await logsOf(server, ann, '?limit=4');
    expect(first.logs).toHaveLength(4);
    expect(first.nextBefore).toEqual(expect.any(String));
    expect(first.nextBefore).not.toContain(first.logs[3]!.id);
    const second = await logsOf(server, ann, `?limit=4&before=${encodeURIComponent(first.nextBefore!)}`);
    expect(second.nextBefore).toBeNull();
    expect(shape([...first.logs, ...second.logs])).toEqual(expected());
    const ids = [...first.logs, ...second.logs].map((l) => l.id);
    expect(new Set(ids).size).toBe(6);
  });

  it('never shows a stranger someone else’s calls, and refuses bad queries', async () => {
    const cy = await createUser(server, 'Cy');
    expect(await logsOf(server, cy)).toEqual({ logs: [], nextBefore: null });
    const first = await logsOf(server, ann, '?limit=1');
    // Someone else's cursor only says where to start: still the stranger's own (empty) history.
    expect(await logsOf(server, cy, `?before=${first.nextBefore}`)).toEqual({ logs: [], nextBefore: null });
    expect((await server.get('/api/users/call-logs?before=bm9wZQ', ann.token)).body).toEqual({
      error: CALL_MSG.fetchLogsFailed,
    });
    expect((await server.get('/api/users/call-logs?limit=0', ann.token)).status).toBe(400);
    expect((await server.get('/api/users/call-logs?limit=101', ann.token)).status).toBe(400);
    expect((await server.get('/api/users/call-logs')).status).toBe(401);
  });
});

describe('GET /api/rtc/config', () => {
  it('without TURN_URLS: no ICE server at all (never a third-party STUN server)', async () => {
    const user = await createUser(server, 'Ivy');
    const res = await server.get('/api/rtc/config', user.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ iceServers: [], ttl: 0 });
    expect((await server.get('/api/rtc/config')).status).toBe(401);
  });

  it('with TURN: the STUN servers as they are, the TURN servers with credentials coturn verifies', async () => {
    const secret = 'coturn-static-auth-secret';
    const turn = await startCallServer({
      config: {
        turnUrls: [
          'stun:turn.campus.example:3478',
          'turn:turn.campus.example:3478?transport=udp',
          'turns:turn.campus.example:5349',
        ],
        turnSecret: secret,
      },
    });
    try {
      const user = await createUser(turn, 'Ivy');
      const before = Math.floor(Date.now() / 1000);
      const res = await turn.get('/api/rtc/config', user.token);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { iceServers, ttl } = res.body as {
        iceServers: { urls: string[]; username?: string; credential?: string }[];
        ttl: number;
      };
      expect(ttl).toBe(CALL.turnCredentialTtlSeconds);
      expect(iceServers[0]).toEqual({ urls: ['stun:turn.campus.example:3478'] });
      const relay = iceServers[1]!;
      expect(relay.urls).toEqual([
        'turn:turn.campus.example:3478?transport=udp',
        'turns:turn.campus.example:5349',
      ]);
      const [expiry, userId] = relay.username!.split(':');
      expect(userId).toBe(user.id);
      expect(Number(expiry)).toBeGreaterThanOrEqual(before + ttl);
      expect(Number(expiry)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + ttl);
      expect(relay.credential).toBe(createHmac('sha1', secret).update(relay.username!).digest('base64'));
      expect(relay.credential).not.toBe(
        createHmac('sha1', 'another secret').update(relay.username!).digest('base64'),
      );
    } finally {
      await turn.close();
    }
  });
});
