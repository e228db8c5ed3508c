import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { WebsocketProvider } from 'y-websocket';
import { CLOSE_CODES, NOTES, NOTES_FRAME_LIMITS } from '@campus/protocol';
import { parseRelay } from '../src/modules/notes/awareness-wire';
import { decodeAwarenessFrame } from '../src/modules/notes/frame-decoder';
import {
  awarenessFrame,
  awarenessPayload,
  createGroup,
  openNotesClient,
  RawNotes,
  signUp,
  until,
  upgradeClock,
  varUint,
  type NotesClient,
  type Student,
} from './notes-helpers';
import { startNotesNodes, type NotesNodes } from './support/notes-nodes';
import { TEST_REDIS_URL } from './support/redis';
import type { ServerProcess } from './support/server-process';
import { execSql } from './support/sql';
import type { TestServer } from './support/test-server';

/**
 * Group notes' awareness (presence, cursors) on two nodes sharing one database and one Redis (see
 * support/notes-nodes.ts). Every test first shows a state crossing nodes, so none passes without the relay;
 * without Redis they fail, never skip.
 */
let nodes: NotesNodes;
/** Publishes on the notes channel as another node would. */
let publisher: Redis;
/** Listens to the notes channel: `heard` is every message on it, as published (`<node id>\n<body>`). */
let tap: Redis;
const heard: string[] = [];
/** Everyone the tests need, signed up once for the file (sign-ups are rate limited). */
let team: Record<'ana' | 'ben' | 'carl' | 'dan' | 'eve' | 'mallory', Student>;
const providers: WebsocketProvider[] = [];
const raws: RawNotes[] = [];

beforeAll(async () => {
  nodes = await startNotesNodes({ now: upgradeClock.now });
  publisher = new Redis(TEST_REDIS_URL);
  tap = new Redis(TEST_REDIS_URL);
  tap.on('message', (_channel: string, message: string) => heard.push(message));
  await tap.subscribe(nodes.channel);
  const b = nodes.b;
  team = {
    ana: await signUp(b, 'Ana'),
    ben: await signUp(b, 'Ben'),
    carl: await signUp(b, 'Carl'),
    dan: await signUp(b, 'Dan'),
    eve: await signUp(b, 'Eve'),
    mallory: await signUp(b, 'Mallory'),
  };
}, 60_000);
afterEach(() => {
  for (const provider of providers.splice(0)) provider.destroy();
  for (const raw of raws.splice(0)) raw.close();
});
afterAll(async () => {
  publisher?.disconnect();
  tap?.disconnect();
  await nodes?.close();
});

const open = (node: Pick<TestServer, 'url'>, student: Student, groupId: string) =>
  openNotesClient(node, student, groupId, providers);

/** Two nodes and a Redis on a shared machine: more patience than one server needs. */
const eventually = (check: () => boolean, what: string, ms = 10_000) => until(check, what, ms);

const synced = (...clients: NotesClient[]) =>
  eventually(() => clients.every((c) => c.provider.synced), 'the clients to sync');

/** What `viewer` sees of `subject`'s awareness state (its client id is its document's). */
const stateSeen = (viewer: NotesClient, subject: NotesClient | number): unknown =>
  viewer.provider.awareness.getStates().get(typeof subject === 'number' ? subject : subject.doc.clientID);

const sees = (viewer: NotesClient, subject: NotesClient | number, field: string, value: unknown) => {
  const state = stateSeen(viewer, subject);
  return typeof state === 'object' && state !== null && isDeepStrictEqual(Reflect.get(state, field), value);
};

const setField = (client: NotesClient, field: string, value: unknown) =>
  client.provider.awareness.setLocalStateField(field, value);

/** The client's socket closes under it, as on a network loss: no removal of its own state is sent. */
function loseConnection(client: NotesClient, reconnect: boolean): void {
  client.provider.shouldConnect = reconnect;
  client.provider.ws?.close();
}

/** A raw member socket (RawNotes reads only the url of the node it is given). */
async function rawNotes(node: Pick<TestServer, 'url'>, student: Student, groupId: string) {
  const raw = await RawNotes.open(node as TestServer, student, groupId);
  raws.push(raw);
  return raw;
}

/** A raw member socket that keeps every frame it receives. */
async function recorder(node: Pick<TestServer, 'url'>, student: Student, groupId: string) {
  const raw = await rawNotes(node, student, groupId);
  const frames: Buffer[] = [];
  raw.socket.on('message', (data: Buffer) => frames.push(data));
  /** Whether an awareness frame (type 1) carrying `text` arrived. */
  const got = (text: string) => frames.some((frame) => frame[0] === 1 && frame.includes(text));
  return { raw, got };
}

/** A new group of Ana (on `anaNode`), Ben (on node B) and `more`, once each sees the other's name. */
async function anaAndBen(anaNode: Pick<TestServer, 'url'>, more: Student[] = []) {
  const groupId = await createGroup(nodes.b, team.ana, [team.ben, ...more]);
  const a = open(anaNode, team.ana, groupId);
  const b = open(nodes.b, team.ben, groupId);
  await synced(a, b);
  setField(a, 'user', { name: 'Ana' });
  setField(b, 'user', { name: 'Ben' });
  await eventually(
    () => sees(b, a, 'user', { name: 'Ana' }) && sees(a, b, 'user', { name: 'Ben' }),
    'Ana and Ben to see each other across nodes',
  );
  return { groupId, a, b };
}

/** The client ids of every awareness entry relayed on the notes channel so far. */
function relayedClients(): Set<number> {
  const clients = new Set<number>();
  for (const message of heard) {
    const parsed = parseRelay(message.slice(message.indexOf('\n') + 1));
    if (!('kind' in parsed) || parsed.kind !== 'states') continue;
    for (const entry of decodeAwarenessFrame(parsed.frame)) clients.add(entry.client);
  }
  return clients;
}

describe('group notes awareness on two nodes (REDIS_URL)', () => {
  it('members on different nodes see each other’s presence, fields and every cursor move', async () => {
    const { groupId, a, b } = await anaAndBen(nodes.a, [team.carl]);
    for (let index = 1; index <= 30; index++) setField(a, 'cursor', { index });
    await eventually(() => sees(b, a, 'cursor', { index: 30 }), 'Ben to see Ana’s last cursor');

    // Carl opens the notes on node A after Ana and Ben set their states: he sees both at once, long before
    // y-protocols' 15 s renewal would bring Ben's.
    const c = open(nodes.a, team.carl, groupId);
    await eventually(
      () => sees(c, b, 'user', { name: 'Ben' }) && sees(c, a, 'user', { name: 'Ana' }),
      'Carl to see Ben’s presence',
      5_000,
    );
  });

  it('a member who opens notes that were not open on their node sees the others at once', async () => {
    const groupId = await createGroup(nodes.b, team.ana, [team.ben]);
    const a = open(nodes.a, team.ana, groupId);
    await synced(a);
    setField(a, 'user', { name: 'Ana' });
    // Node B loads the group now, and asks the other nodes for the states they hold.
    const b = open(nodes.b, team.ben, groupId);
    await eventually(() => sees(b, a, 'user', { name: 'Ana' }), 'Ben to see Ana', 5_000);
  });

  it('a closed socket’s presence leaves the other node at once, also after a reconnect', async () => {
    const { groupId, a, b } = await anaAndBen(nodes.a, [team.carl]);
    // Carl keeps the notes open on node A while Ana reconnects there.
    const c = open(nodes.a, team.carl, groupId);
    await synced(c);

    // Ana's connection drops without a goodbye (y-websocket's disconnect() would send her removal first)
    // and comes back: node A knows her client id already, so her state is not new there.
    loseConnection(a, true);
    await eventually(() => stateSeen(b, a) === undefined, 'Ben to stop seeing Ana');
    await synced(a);
    setField(a, 'user', { name: 'Ana again' });
    await eventually(() => sees(b, a, 'user', { name: 'Ana again' }), 'Ben to see Ana back');

    const closedAt = Date.now();
    loseConnection(a, false);
    await eventually(() => stateSeen(b, a) === undefined, 'Ben to stop seeing Ana', 5_000);
    expect(Date.now() - closedAt).toBeLessThan(5_000);

    // And the other way: Ben leaves node B, Carl on node A stops seeing him.
    await eventually(() => sees(c, b, 'user', { name: 'Ben' }), 'Carl to see Ben');
    b.provider.destroy();
    await eventually(() => stateSeen(c, b) === undefined, 'Carl to stop seeing Ben', 5_000);
  });

  it('a non-member gets no presence on either node, and a removed member gets none from the removal on', async () => {
    const groupId = await createGroup(nodes.b, team.ana, [team.ben, team.carl, team.dan]);
    // Eve is in another group with Ben, with those notes open on both nodes.
    const other = await createGroup(nodes.b, team.ben, [team.eve]);
    const eveOnA = await recorder(nodes.a, team.eve, other);
    const eveOnB = await recorder(nodes.b, team.eve, other);
    const a = open(nodes.a, team.ana, groupId);
    const b = open(nodes.b, team.ben, groupId);
    await synced(a, b);
    // Carl on the other node than Ana (relayed presence), Dan on hers (local presence).
    const carlOnB = await recorder(nodes.b, team.carl, groupId);
    const danOnA = await recorder(nodes.a, team.dan, groupId);

    setField(a, 'note', 'marker-before-removal');
    await eventually(() => sees(b, a, 'note', 'marker-before-removal'), 'Ben to see Ana’s state');
    await eventually(
      () => carlOnB.got('marker-before-removal') && danOnA.got('marker-before-removal'),
      'Carl and Dan, still members, to get it',
    );

    for (const student of [team.carl, team.dan]) {
      await execSql(
        nodes.b,
        'DELETE FROM group_members WHERE group_id = ? AND user_id = ?',
        groupId,
        student.userId,
      );
    }
    setField(a, 'note', 'marker-after-removal');
    await eventually(() => sees(b, a, 'note', 'marker-after-removal'), 'Ben to see the new state');
    for (const removed of [carlOnB, danOnA]) {
      expect(await removed.raw.closed(5_000)).toBe(CLOSE_CODES.forbidden);
      expect(removed.got('marker-after-removal')).toBe(false);
    }
    for (const outsider of [eveOnA, eveOnB]) {
      expect(outsider.got('marker')).toBe(false);
      expect(outsider.raw.closeCode).toBeNull();
    }
  });

  it('refuses hostile awareness frames on either node and relays nothing of them', async () => {
    const groupId = await createGroup(nodes.b, team.mallory, [team.ana, team.ben]);
    const b = open(nodes.b, team.ben, groupId);
    await synced(b);
    const hostile = [
      // One state over maxAwarenessBytes, and a whole frame over maxFrameBytes.
      [{ client: 4242, clock: 1, state: { name: 'x'.repeat(NOTES_FRAME_LIMITS.maxAwarenessBytes + 10) } }],
      Array.from({ length: 20 }, (_, i) => ({
        client: 4300 + i,
        clock: 1,
        state: { pad: 'y'.repeat(3500) },
      })),
    ];
    for (const node of [nodes.a, nodes.b]) {
      for (const entries of hostile) {
        const raw = await rawNotes(node, team.mallory, groupId);
        await raw.send(awarenessFrame(awarenessPayload(entries)));
        expect([NOTES.closeMalformed, NOTES.closeTooLarge]).toContain(await raw.closed(5_000));
      }
    }
    // A well-formed state from the same member on node A crosses: the refused ones were not lost on the way.
    const fine = await rawNotes(nodes.a, team.mallory, groupId);
    await fine.send(awarenessFrame(awarenessPayload([{ client: 777, clock: 1, state: { name: 'M' } }])));
    await eventually(() => sees(b, 777, 'name', 'M'), 'Ben to see the well-formed state');

    const relayed = relayedClients();
    expect(relayed.has(777)).toBe(true);
    for (const client of [4242, 4300, 4319]) {
      expect(relayed.has(client)).toBe(false);
      expect(stateSeen(b, client)).toBeUndefined();
    }
  });
});

/** Every process below `pid`, from Linux's /proc (main.ts runs under tsx's shell shim and its CLI). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    for (const child of children.split(' ').filter(Boolean).map(Number)) {
      found.push(child, ...descendants(child));
    }
  }
  return found;
}

/** A crash: the node and the processes it runs in die at once, without a word to Redis. */
function crash(node: ServerProcess): void {
  const pid = node.child.pid!;
  for (const each of [pid, ...descendants(pid)]) process.kill(each, 'SIGKILL');
}

describe('awareness messages between nodes', () => {
  it('drops malformed ones, applies a good one, and removes a silent node’s states within seconds', async () => {
    const { groupId, a, b } = await anaAndBen(nodes.a);
    const send = (body: string) => publisher.publish(nodes.channel, `ghost-node\n${body}`);
    const fromGhost = (frame: Uint8Array, user = '') =>
      `a\nghost-node\n${groupId}\n${user}\n${Buffer.from(frame).toString('base64')}`;
    const states = (entries: { client: number; clock: number; state: unknown }[], user?: string) =>
      fromGhost(awarenessFrame(awarenessPayload(entries)), user);
    const notJson = Buffer.from('{nope');
    const hostile = [
      `a\n${'x'.repeat(200_000)}`,
      `a\nghost-node\n${groupId}\n\n%%% not base64 %%%`,
      `a\nghost node\n${groupId}\n\nAQA=`,
      `a\nghost-node\n../${groupId}\n\nAQA=`,
      `q\nghost-node`,
      // A document update where awareness belongs, a count that claims 2^28 entries, a state that is not
      // JSON, one over maxAwarenessBytes, trailing bytes.
      fromGhost(Uint8Array.from([0, 2, 2, 0, 0])),
      fromGhost(Uint8Array.from([1, 5, 0xff, 0xff, 0xff, 0x7f, 0])),
      fromGhost(awarenessFrame(Uint8Array.from([1, 9, 1, ...varUint(notJson.length), ...notJson]))),
      states([{ client: 9002, clock: 1, state: 'z'.repeat(NOTES_FRAME_LIMITS.maxAwarenessBytes) }]),
      fromGhost(
        Uint8Array.from([...awarenessFrame(awarenessPayload([{ client: 9003, clock: 1, state: 1 }])), 0]),
      ),
      // Ana's client id at a later clock, from a node that does not hold it: her presence is not theirs.
      states(
        [{ client: a.doc.clientID, clock: 99, state: { user: { name: 'Not Ana' } } }],
        team.mallory.userId,
      ),
    ];
    for (const body of hostile) await send(body);
    await send(states([{ client: 9001, clock: 1, state: { name: 'ghost' } }]));
    await eventually(
      () => sees(a, 9001, 'name', 'ghost') && sees(b, 9001, 'name', 'ghost'),
      'both nodes to apply the good message',
    );
    for (const client of [9002, 9003]) expect(stateSeen(b, client)).toBeUndefined();
    expect(sees(b, a, 'user', { name: 'Ana' })).toBe(true);
    expect(nodes.a.child.exitCode).toBeNull();
    for (const url of [nodes.a.url, nodes.b.url]) expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect([...a.closes, ...b.closes]).toEqual([]);

    // The ghost node never says it is alive: its state goes, long before y-protocols' 30 s timeout.
    const lastHeard = Date.now();
    await eventually(
      () => stateSeen(a, 9001) === undefined && stateSeen(b, 9001) === undefined,
      'the silent node’s state to go',
      15_000,
    );
    expect(Date.now() - lastHeard).toBeLessThan(15_000);
    expect(sees(b, a, 'user', { name: 'Ana' })).toBe(true);
  });

  it('a node that stops: its members’ presence leaves the other node as their sockets close', async () => {
    const nodeC = await nodes.startNode();
    try {
      const { a, b } = await anaAndBen(nodeC);
      const stoppedAt = Date.now();
      const stopped = nodeC.stop();
      // Before the 5 s a silent node is given: the removal went out as the stopping node closed her socket.
      await eventually(() => stateSeen(b, a) === undefined, 'Ben to stop seeing Ana', 4_000);
      expect(Date.now() - stoppedAt).toBeLessThan(4_000);
      await stopped;
    } finally {
      await nodeC.stop();
    }
  });

  it('a node that crashes: its members’ presence leaves the other node within seconds', async () => {
    const nodeC = await nodes.startNode();
    try {
      const { a, b } = await anaAndBen(nodeC);

      const killedAt = Date.now();
      crash(nodeC);
      await eventually(() => stateSeen(b, a) === undefined, 'Ben to stop seeing Ana', 15_000);
      expect(Date.now() - killedAt).toBeLessThan(15_000);
    } finally {
      await nodeC.stop();
    }
  });
});
