import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLOSE_CODES,
  type CallServerFrame,
  type RandomServerFrame,
  type SessionDescription,
} from '../../packages/protocol/src';
import {
  writeConfessionComment,
  writeConfessionPost,
  writeConfessionReaction,
  writeDecideFriendRequest,
  writeDirectMessage,
  writeGroupMessage,
  writeMarkRead,
  type CampusDatabase,
  type SyncClient,
} from '../../packages/sync/src';
import { readCursor } from '../../packages/sync/src/meta';
import { chatBySeq, newDeviceDatabase, waitFor, type Student } from './support/harness';
import { clusterForFile, startNodeDevice, type NodeDeviceOptions, type NodeProcess } from './support/nodes';
import { recordingWire, type Wire } from './support/wire';

/**
 * Two server processes on one PostgreSQL (a throwaway schema of this file's) and one Redis
 * (support/nodes.ts), students on either, each with a real sync client: what one does on node 1 reaches
 * the other on node 2 live, as on one node — chat, typing, read ticks, presence and the online count,
 * group fan-out, confession updates, notifications, call signalling and random talk's matching. Data is
 * read through REST and the sockets only, never from the database. Without PostgreSQL or redis-server the
 * cluster does not start and these tests fail; they are never skipped.
 *
 * SYSTEM_DATABASE=sqlite runs them on one SQLite file shared by the two processes instead (a run by hand:
 * `SYSTEM_DATABASE=sqlite pnpm exec vitest run --project system multi-node`); TEST_DATABASE_URL points
 * them at another PostgreSQL.
 */

const nodes = clusterForFile({ nodes: 2 });
const clients: SyncClient[] = [];

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await nodes.close();
}, 60_000);

const node = (i: 1 | 2): NodeProcess => nodes.get().nodes[i - 1]!;
const LIVE = 15_000;

/** A device of `student` on `node`, its frames recorded. */
function device(student: Student, on: NodeProcess, extra: Partial<NodeDeviceOptions> = {}) {
  const wire = recordingWire();
  const client = startNodeDevice({ student, node: on, db: newDeviceDatabase(student), wire, ...extra });
  clients.push(client);
  return { client, wire, db: client.db };
}

/** A group's messages in server order (seq), as the device holds them. */
function groupBySeq(db: CampusDatabase, groupId: string) {
  return db.groupMessages.where('[group+seq]').between([groupId, -Infinity], [groupId, Infinity]).toArray();
}

/** Answers to pulls the device got: `changes` pages and `sync_reset`s. */
function pullAnswers(wire: Wire): number {
  return wire.received.filter((f) => f.type === 'changes' || f.type === 'sync_reset').length;
}

/**
 * Connected and past the first sync (a snapshot; the server then sends what commits as it commits): a
 * change made after this reaches the device pushed, never inside that first sync (whose notifications, for
 * one, load through REST).
 */
async function online(...all: SyncClient[]): Promise<void> {
  await waitFor(async () => {
    for (const c of all) {
      expect(c.getState().status).toBe('online');
      expect(await readCursor(c.db)).toBeGreaterThan(0);
    }
  }, LIVE);
}

/** Whether `id` reached the device in a pushed frame (live), not in the answer to a pull (`changes`). */
function pushed(wire: Wire, id: string): boolean {
  return wire.received.some((f) => f.type !== 'changes' && f.type !== 'sync_reset' && f.data.includes(id));
}

/**
 * Friends through REST: `from` asks on `fromNode`, `to` accepts on `toNode` (calls ring friends; presence
 * goes between contacts only).
 */
async function befriend(from: Student, fromNode: NodeProcess, to: Student, toNode: NodeProcess) {
  const asked = await fromNode.request('POST', '/api/users/friends/requests', { to: to.id }, from.token);
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  const incoming = await toNode.request('GET', '/api/users/friends/requests', undefined, to.token);
  const requests = incoming.body as unknown as { id: string; from: { id: string } }[];
  const request = requests.find((r) => r.from.id === from.id);
  expect(request, JSON.stringify(incoming.body)).toBeDefined();
  const accepted = await toNode.request(
    'PUT',
    `/api/users/friends/requests/${request!.id}/accept`,
    undefined,
    to.token,
  );
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
}

/**
 * Students online now as this file's devices stand: each user with a live session counts once, whichever
 * node holds it. The online count every device hears is the deployment's, so it must equal this.
 */
function studentsOnline(): number {
  return new Set(clients.filter((c) => c.getState().status === 'online').map((c) => c.userId)).size;
}

/** Every call frame the client hands its call layer (the call screen's listener), in order. */
function callFrames(client: SyncClient): CallServerFrame[] {
  const frames: CallServerFrame[] = [];
  client.onCallFrame((frame) => frames.push(frame));
  return frames;
}

/** Every random-talk frame the client hands the random screens, in order. */
function randomFrames(client: SyncClient): RandomServerFrame[] {
  const frames: RandomServerFrame[] = [];
  client.onRandomFrame((frame) => frames.push(frame));
  return frames;
}

/** The first frame of `type` among `frames` (typed), or undefined. */
function first<F extends { type: string }, T extends F['type']>(
  frames: readonly F[],
  type: T,
  where: (frame: Extract<F, { type: T }>) => boolean = () => true,
): Extract<F, { type: T }> | undefined {
  return frames.find(
    (f): f is Extract<F, { type: T }> => f.type === type && where(f as Extract<F, { type: T }>),
  );
}

/** A whole session description, as simple-peer emits it with trickle off (the server relays it as is). */
function sdp(type: 'offer' | 'answer'): SessionDescription {
  return { type, sdp: `v=0\r\no=- ${randomUUID()} 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n` };
}

describe('two server processes sharing one database and one Redis', () => {
  it('a direct chat between students on different nodes is live both ways, with typing and read ticks', async () => {
    // Independent sign-ups go side by side (each costs a password hash and a few round trips).
    const [ana, ben] = await Promise.all([
      nodes.get().signUp(node(1), 'Ana'),
      nodes.get().signUp(node(2), 'Ben'),
    ]);
    const a = device(ana, node(1));
    const b = device(ben, node(2));
    await online(a.client, b.client);

    const hello = await a.client.run(writeDirectMessage, ben.ref, 'hello from node 1');
    await waitFor(
      async () => expect((await b.db.messages.get(hello))?.content).toBe('hello from node 1'),
      LIVE,
    );
    expect(pushed(b.wire, hello)).toBe(true);
    // Ben's node commits the delivery receipt; the tick reaches Ana on node 1.
    await waitFor(async () => expect((await a.db.messages.get(hello))?.status).toBe('delivered'), LIVE);

    const answer = await b.client.run(writeDirectMessage, ana.ref, 'hi from node 2');
    await waitFor(
      async () => expect((await a.db.messages.get(answer))?.content).toBe('hi from node 2'),
      LIVE,
    );
    expect(pushed(a.wire, answer)).toBe(true);
    await waitFor(async () => expect((await b.db.messages.get(answer))?.status).toBe('delivered'), LIVE);

    // Typing is ephemeral (never in the log): only Redis carries it from node 2 to node 1.
    b.client.typing({ roomId: ana.id });
    await waitFor(() => expect(a.client.getState().typing.get(`u:${ben.id}`)).toEqual([ben.id]), LIVE);
    b.client.stopTyping({ roomId: ana.id });
    await waitFor(() => expect(a.client.getState().typing.has(`u:${ben.id}`)).toBe(false), LIVE);
    a.client.typing({ roomId: ben.id });
    await waitFor(() => expect(b.client.getState().typing.get(`u:${ana.id}`)).toEqual([ana.id]), LIVE);

    // Read ticks, both ways.
    await b.client.run(writeMarkRead, ana.id, [hello]);
    await waitFor(async () => expect((await a.db.messages.get(hello))?.status).toBe('read'), LIVE);
    await a.client.run(writeMarkRead, ben.id, [answer]);
    await waitFor(async () => expect((await b.db.messages.get(answer))?.status).toBe('read'), LIVE);
  });

  it('a group message fans out to members on both nodes', async () => {
    const [cy, di, eli, fox] = await Promise.all([
      nodes.get().signUp(node(1), 'Cy'),
      nodes.get().signUp(node(2), 'Di'),
      nodes.get().signUp(node(2), 'Eli'),
      nodes.get().signUp(node(1), 'Fox'),
    ]);
    const c = device(cy, node(1));
    const d = device(di, node(2));
    const e = device(eli, node(2));
    const f = device(fox, node(1));
    await online(c.client, d.client, e.client, f.client);

    // Created through REST on node 2: the group reaches its owner's device on node 1 live.
    const res = await node(2).request(
      'POST',
      '/api/groups',
      { name: 'Across', memberIds: [cy.id, fox.id, eli.id] },
      di.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const groupId = res.body.id as string;
    for (const member of [c, d, e, f])
      await waitFor(async () => expect(await member.db.groups.get(groupId)).toBeDefined(), LIVE);

    const fromOne = await c.client.run(writeGroupMessage, groupId, 'from node 1');
    const fromTwo = await e.client.run(writeGroupMessage, groupId, 'from node 2');
    for (const member of [c, d, e, f]) {
      await waitFor(async () => {
        const ids = (await groupBySeq(member.db, groupId)).map((m) => m.id);
        expect(ids).toEqual(expect.arrayContaining([fromOne, fromTwo]));
      }, LIVE);
    }
    expect(pushed(d.wire, fromOne)).toBe(true);
    expect(pushed(f.wire, fromTwo)).toBe(true);
    // The same order (seq) on every device.
    const orders = await Promise.all(
      [c, d, e, f].map(async (m) => (await groupBySeq(m.db, groupId)).map((x) => x.id)),
    );
    for (const order of orders) expect(order).toEqual(orders[0]);
  });

  it('a confession posted through node 1 reaches a student on node 2 live; their reaction and comment update it and notify its author on node 1', async () => {
    const [author, reader] = await Promise.all([
      nodes.get().signUp(node(1), 'Gia'),
      nodes.get().signUp(node(2), 'Hal'),
    ]);
    // Posting, reacting and commenting all need a nickname, each set through the student's own node.
    for (const [who, on, nickname] of [
      [author, node(1), 'quiet_heron'],
      [reader, node(2), 'night_owl'],
    ] as const) {
      const nick = await on.request('POST', '/api/confessions/nickname/set', { nickname }, who.token);
      expect(nick.status, JSON.stringify(nick.body)).toBe(200);
    }
    const a = device(author, node(1));
    const r = device(reader, node(2));
    await online(a.client, r.client);

    const id = await a.client.run(writeConfessionPost, 'the library at 2 am', '😐', {
      nickname: 'quiet_heron',
    });
    await waitFor(
      async () => expect((await r.db.confessions.get(id))?.content).toBe('the library at 2 am'),
      LIVE,
    );
    expect(pushed(r.wire, id)).toBe(true);

    // The reader reacts and comments through node 2: the card's counts update live on the author's device
    // on node 1 (comments themselves load when a card is opened), and the author is notified there.
    await r.client.run(writeConfessionReaction, id, 'funny', true);
    await r.client.run(writeConfessionComment, id, 'same, every week', { nickname: 'night_owl' });
    await waitFor(async () => {
      const card = await a.db.confessions.get(id);
      expect({ funny: card?.reactions.funny, comments: card?.commentCount }).toEqual({
        funny: 1,
        comments: 1,
      });
    }, LIVE);
    await waitFor(async () => {
      const notices = await a.db.notifications.orderBy('createdAt').toArray();
      expect(notices.map((n) => n.type).sort()).toEqual(['confession_comment', 'confession_reaction']);
      for (const notice of notices) expect(pushed(a.wire, notice.id)).toBe(true);
    }, LIVE);
    const commented = (await a.db.notifications.toArray()).find((n) => n.type === 'confession_comment');
    expect(commented?.body).toBe('night_owl: same, every week');
  });

  it('a friend request made on node 1 notifies the student on node 2 live; accepted there, the friendship reaches node 1', async () => {
    const [tao, uma] = await Promise.all([
      nodes.get().signUp(node(1), 'Tao'),
      nodes.get().signUp(node(2), 'Uma'),
    ]);
    const t = device(tao, node(1));
    const u = device(uma, node(2));
    await online(t.client, u.client);

    const asked = await node(1).request('POST', '/api/users/friends/requests', { to: uma.id }, tao.token);
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    // Committed on node 1; the request and its notification reach Uma's device on node 2 as pushed changes.
    await waitFor(async () => {
      const notices = await u.db.notifications.toArray();
      expect(notices.map((n) => n.type)).toEqual(['friend_request']);
      expect(pushed(u.wire, notices[0]!.id)).toBe(true);
    }, LIVE);
    let requestId = '';
    await waitFor(async () => {
      const requests = await u.db.friendRequests.toArray();
      expect(requests.map((r) => r.from.id)).toEqual([tao.id]);
      requestId = requests[0]!.id;
    }, LIVE);

    // Accepted on Uma's device (a mutation over node 2's socket): both are friends on both devices.
    await u.client.run(writeDecideFriendRequest, requestId, 'accept');
    await waitFor(async () => expect(await t.db.friends.get(uma.id)).toBeDefined(), LIVE);
    await waitFor(async () => expect(await u.db.friends.get(tao.id)).toBeDefined(), LIVE);
    expect(
      t.wire.received.some(
        (f) => f.type !== 'changes' && f.data.includes('friendship_changed') && f.data.includes(uma.id),
      ),
    ).toBe(true);
    // Friends are contacts: each now sees the other online, across the nodes.
    await waitFor(() => expect(t.client.getState().online.has(uma.id)).toBe(true), LIVE);
    await waitFor(() => expect(u.client.getState().online.has(tao.id)).toBe(true), LIVE);
  });

  it('presence crosses nodes: a friend on node 1 comes online and goes offline for a student on node 2, and the online count is the deployment’s', async () => {
    const [rae, sol] = await Promise.all([
      nodes.get().signUp(node(2), 'Rae'),
      nodes.get().signUp(node(1), 'Sol'),
    ]);
    await befriend(sol, node(1), rae, node(2));
    const r = device(rae, node(2));
    await online(r.client);
    expect(r.client.getState().online.has(sol.id)).toBe(false);

    const s = device(sol, node(1));
    await waitFor(() => expect(r.client.getState().online.has(sol.id)).toBe(true), LIVE);
    // Sol's hello on node 1 finds Rae, online on node 2 only, in the online list.
    await waitFor(() => expect(s.client.getState().online.has(rae.id)).toBe(true), LIVE);
    // The count (sent at most every 2 s) counts the students of both nodes, the same on both.
    await waitFor(() => {
      expect(r.client.getState().onlineCount).toBe(studentsOnline());
      expect(s.client.getState().onlineCount).toBe(studentsOnline());
    }, LIVE);
    const withSol = studentsOnline();

    await s.client.stop();
    expect(studentsOnline()).toBe(withSol - 1);
    await waitFor(() => expect(r.client.getState().online.has(sol.id)).toBe(false), LIVE);
    expect(r.client.getState().lastActive.get(sol.id)).toMatch(/^\d{4}-\d\d-\d\dT/);
    await waitFor(() => expect(r.client.getState().onlineCount).toBe(withSol - 1), LIVE);

    // Back on node 1 with a new device: online again (the count's way back up is the one checked above).
    device(sol, node(1));
    await waitFor(() => expect(r.client.getState().online.has(sol.id)).toBe(true), LIVE);
  });

  it('a call from node 1 rings the friend on node 2; the answer and the hang-up cross back, and the call is logged once for both', async () => {
    const [vic, wes] = await Promise.all([
      nodes.get().signUp(node(1), 'Vic'),
      nodes.get().signUp(node(2), 'Wes'),
    ]);
    await befriend(vic, node(1), wes, node(2));
    const v = device(vic, node(1));
    const w = device(wes, node(2));
    await online(v.client, w.client);
    const atVic = callFrames(v.client);
    const atWes = callFrames(w.client);

    // Calls' state lives on one node (the coordinator): whichever node holds it, the frames cross Redis.
    const callId = randomUUID();
    const offered = sdp('offer');
    const sent = v.client.sendCallFrame({
      type: 'call:offer',
      callId,
      to: wes.id,
      callType: 'audio',
      signal: offered,
    });
    expect(sent).toBe(true);
    await waitFor(
      () =>
        expect(first(atWes, 'call:offer', (f) => f.callId === callId)).toMatchObject({
          from: { id: vic.id },
          callType: 'audio',
          signal: offered,
        }),
      LIVE,
    );
    await waitFor(() => expect(first(atVic, 'call:ringing', (f) => f.callId === callId)).toBeDefined(), LIVE);

    const answered = sdp('answer');
    expect(w.client.sendCallFrame({ type: 'call:answer', callId, to: vic.id, signal: answered })).toBe(true);
    await waitFor(
      () =>
        expect(first(atVic, 'call:answer', (f) => f.callId === callId)).toMatchObject({
          from: wes.id,
          signal: answered,
        }),
      LIVE,
    );

    // Wes hangs up on node 2: Vic's device on node 1 hears the call ended.
    expect(w.client.sendCallFrame({ type: 'call:end', callId, to: vic.id, reason: 'ended' })).toBe(true);
    await waitFor(
      () => expect(first(atVic, 'call:end', (f) => f.callId === callId)).toMatchObject({ reason: 'ended' }),
      LIVE,
    );

    // The log is written once (by the coordinator) and reaches both devices as a change.
    for (const side of [v, w])
      await waitFor(async () => {
        const logs = await side.db.callLogs.toArray();
        expect(logs).toHaveLength(1);
        expect(logs[0]).toMatchObject({
          status: 'completed',
          callType: 'audio',
          caller: { id: vic.id },
          callee: { id: wes.id },
        });
      }, LIVE);
    const logId = (await v.db.callLogs.toArray())[0]!.id;
    expect((await w.db.callLogs.toArray())[0]!.id).toBe(logId);
    // Through REST on either node: the same one log.
    for (const [reader, on] of [
      [vic, node(2)],
      [wes, node(1)],
    ] as const) {
      const page = await on.request('GET', '/api/users/call-logs', undefined, reader.token);
      expect(page.status).toBe(200);
      expect((page.body.logs as { id: string }[]).map((l) => l.id)).toEqual([logId]);
    }
  });

  it('two students queueing for random talk on different nodes are matched with each other and talk', async () => {
    const [xan, yas] = await Promise.all([
      nodes.get().signUp(node(1), 'Xan'),
      nodes.get().signUp(node(2), 'Yas'),
    ]);
    // Random talk needs a complete profile (college, course, year), saved as the profile screen saves it.
    for (const [who, on] of [
      [xan, node(1)],
      [yas, node(2)],
    ] as const) {
      const profile = { college: 'Nodes College', course: 'Computer Science', year: 2 };
      const saved = await on.request('PUT', '/api/users/profile', profile, who.token);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    const x = device(xan, node(1));
    const y = device(yas, node(2));
    await online(x.client, y.client);
    const atXan = randomFrames(x.client);
    const atYas = randomFrames(y.client);

    // One queue for the whole deployment (on the coordinating node): Xan waits, Yas comes along.
    expect(x.client.sendRandomFrame({ type: 'join-random' })).toBe(true);
    await waitFor(() => expect(first(atXan, 'random-queue')).toMatchObject({ kind: 'chat' }), LIVE);
    expect(y.client.sendRandomFrame({ type: 'join-random' })).toBe(true);
    await waitFor(() => {
      expect(first(atXan, 'random-matched')).toBeDefined();
      expect(first(atYas, 'random-matched')).toBeDefined();
    }, LIVE);
    const matchX = first(atXan, 'random-matched')!;
    const matchY = first(atYas, 'random-matched')!;
    expect(matchX.roomId).toBe(matchY.roomId);
    // Each is shown the other's card (never an id).
    expect(matchX.partner.firstName).toBe('Yas');
    expect(matchY.partner.firstName).toBe('Xan');
    const { roomId } = matchX;

    expect(x.client.sendRandomFrame({ type: 'chat-message', roomId, text: 'hello from node 1' })).toBe(true);
    await waitFor(
      () => expect(first(atYas, 'chat-message')).toMatchObject({ roomId, text: 'hello from node 1' }),
      LIVE,
    );
    expect(y.client.sendRandomFrame({ type: 'chat-message', roomId, text: 'hello from node 2' })).toBe(true);
    await waitFor(
      () => expect(first(atXan, 'chat-message')).toMatchObject({ roomId, text: 'hello from node 2' }),
      LIVE,
    );
    expect(y.client.sendRandomFrame({ type: 'leave-random-room', roomId })).toBe(true);
    await waitFor(
      () => expect(first(atXan, 'random-chat-ended')).toMatchObject({ roomId, reason: 'left' }),
      LIVE,
    );
    // Matched once each: one room, two seats.
    expect(atXan.filter((f) => f.type === 'random-matched')).toHaveLength(1);
    expect(atYas.filter((f) => f.type === 'random-matched')).toHaveLength(1);
  });

  it('a logout on node 1 closes that session’s socket on node 2, and only that session’s', async () => {
    const ivy = await nodes.get().signUp(node(1), 'Ivy');
    // A second session of hers, signed in on node 2.
    const login = await node(2).request('POST', '/api/auth/login', {
      email: ivy.email,
      password: ivy.password,
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const otherToken = login.body.token as string;
    const signedOut = device(ivy, node(2));
    const other = device(ivy, node(2), { token: otherToken });
    await online(signedOut.client, other.client);

    expect((await node(1).request('POST', '/api/auth/logout', {}, ivy.token)).status).toBe(200);
    await waitFor(() => expect(signedOut.client.getState().refusedCode).toBe(CLOSE_CODES.unauthorized), LIVE);
    expect(signedOut.wire.closeCodes).toContain(CLOSE_CODES.unauthorized);
    // Give a stray revocation time to arrive: the other session stays.
    await new Promise((r) => setTimeout(r, 500));
    expect(other.client.getState().status).toBe('online');
    expect(other.wire.closeCodes).toEqual([]);
  });

  it('after Redis restarts, both nodes subscribe again: what was sent meanwhile arrives and typing crosses again', async () => {
    const [jo, kim] = await Promise.all([
      nodes.get().signUp(node(1), 'Jo'),
      nodes.get().signUp(node(2), 'Kim'),
    ]);
    const j = device(jo, node(1));
    const k = device(kim, node(2));
    await online(j.client, k.client);
    const first = await j.client.run(writeDirectMessage, kim.ref, 'before');
    await waitFor(async () => expect(await k.db.messages.get(first)).toBeDefined(), LIVE);
    const changes = `${nodes.get().prefix}:changes`;
    expect(await nodes.get().redis.subscribers(changes)).toBe(2);

    await nodes.get().redis.kill('SIGKILL');
    // Committed on node 1 while no node hears Redis: node 2 reads it from the change log.
    const meanwhile = await j.client.run(writeDirectMessage, kim.ref, 'while Redis is down');
    await waitFor(async () => expect((await j.db.messages.get(meanwhile))?.status).not.toBe('sending'), LIVE);
    await nodes.get().redis.start();

    await waitFor(async () => expect(await nodes.get().redis.subscribers(changes)).toBe(2), 30_000);
    await waitFor(async () => expect(await k.db.messages.get(meanwhile)).toBeDefined(), LIVE);
    const after = await j.client.run(writeDirectMessage, kim.ref, 'after');
    await waitFor(async () => expect(await k.db.messages.get(after)).toBeDefined(), LIVE);
    expect(pushed(k.wire, after)).toBe(true);
    // Typing never goes through the log: it crossing again shows live delivery over Redis is back.
    await waitFor(() => {
      j.client.typing({ roomId: kim.id });
      expect(k.client.getState().typing.get(`u:${jo.id}`)).toEqual([jo.id]);
    }, LIVE);
    const onKim = (await chatBySeq(k.db, jo.id)).map((m) => m.id);
    expect(onKim).toEqual([first, meanwhile, after]);
  });
  it('a device moving between nodes while Redis is down keeps its cursor: no sync_reset, nothing dropped', async () => {
    const [lu, mo] = await Promise.all([
      nodes.get().signUp(node(2), 'Lu'),
      nodes.get().signUp(node(2), 'Mo'),
    ]);
    const m = device(mo, node(2));
    const wire = recordingWire();
    const db = newDeviceDatabase(lu);
    let on = startNodeDevice({ student: lu, node: node(2), db, wire });
    clients.push(on);
    await online(m.client, on);
    const sent = [await m.client.run(writeDirectMessage, lu.ref, 'before')];
    await waitFor(async () => expect(await db.messages.get(sent[0]!)).toBeDefined(), LIVE);
    const changes = `${nodes.get().prefix}:changes`;

    // Without Redis a node learns what another committed from the change log only, once a second: a device
    // that saw a change on one node and reconnects to the other within that second has a cursor the other
    // node has not delivered yet. It must still be served from its cursor (the change is in the shared
    // log), not told to start over (sync_reset drops its history to a snapshot's 30 messages a chat).
    await nodes.get().redis.kill('SIGKILL');
    try {
      for (const [i, to] of ([1, 2, 1] as const).entries()) {
        const id = await m.client.run(writeDirectMessage, lu.ref, `move ${i}`);
        sent.push(id);
        await waitFor(async () => expect(await db.messages.get(id)).toBeDefined(), LIVE);
        await on.stop();
        const answers = pullAnswers(wire);
        on = startNodeDevice({ student: lu, node: node(to), db, wire });
        clients.push(on);
        await waitFor(() => pullAnswers(wire) > answers, LIVE);
      }
    } finally {
      await nodes.get().redis.start();
      await waitFor(async () => expect(await nodes.get().redis.subscribers(changes)).toBe(2), 30_000);
    }
    const resets = wire.receivedOf('sync_reset').map((f) => f.frame.cursor);
    const pulls = wire.sentOf('pull').map((f) => f.cursor);
    // The first sync (cursor 0) is the only reset.
    expect({ resets, pulls }).toEqual({ resets: resets.slice(0, 1), pulls });
    await waitFor(async () => expect((await chatBySeq(db, mo.id)).map((x) => x.id)).toEqual(sent), LIVE);
  });
});
