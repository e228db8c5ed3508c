import { afterAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../packages/protocol/src';
import {
  writeConfessionPost,
  writeDirectMessage,
  writeGroupMessage,
  writeMarkRead,
  type CampusDatabase,
  type SyncClient,
} from '../../packages/sync/src';
import { chatBySeq, newDeviceDatabase, waitFor, type Student } from './support/harness';
import { clusterForFile, startNodeDevice, type NodeDeviceOptions, type NodeProcess } from './support/nodes';
import { recordingWire, type Wire } from './support/wire';

/**
 * Two server processes on one database and one Redis (support/nodes.ts), students on either, each with a
 * real sync client: what one does on node 1 reaches the other on node 2 live, as on one node. Without
 * redis-server the cluster does not start and these tests fail; they are never skipped.
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

async function online(...all: SyncClient[]): Promise<void> {
  await waitFor(() => all.every((c) => c.getState().status === 'online'), LIVE);
}

/** Whether `id` reached the device in a pushed frame (live), not in the answer to a pull (`changes`). */
function pushed(wire: Wire, id: string): boolean {
  return wire.received.some((f) => f.type !== 'changes' && f.type !== 'sync_reset' && f.data.includes(id));
}

describe('two server processes sharing one database and one Redis', () => {
  it('a direct chat between students on different nodes is live both ways, with typing and read ticks', async () => {
    const ana = await nodes.get().signUp(node(1), 'Ana');
    const ben = await nodes.get().signUp(node(2), 'Ben');
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
    const cy = await nodes.get().signUp(node(1), 'Cy');
    const di = await nodes.get().signUp(node(2), 'Di');
    const eli = await nodes.get().signUp(node(2), 'Eli');
    const fox = await nodes.get().signUp(node(1), 'Fox');
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

  it('a confession posted through node 1 reaches a student on node 2 live', async () => {
    const author = await nodes.get().signUp(node(1), 'Gia');
    const reader = await nodes.get().signUp(node(2), 'Hal');
    const nick = await node(1).request(
      'POST',
      '/api/confessions/nickname/set',
      { nickname: 'quiet_heron' },
      author.token,
    );
    expect(nick.status, JSON.stringify(nick.body)).toBe(200);
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
    const jo = await nodes.get().signUp(node(1), 'Jo');
    const kim = await nodes.get().signUp(node(2), 'Kim');
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
    const lu = await nodes.get().signUp(node(2), 'Lu');
    const mo = await nodes.get().signUp(node(2), 'Mo');
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
