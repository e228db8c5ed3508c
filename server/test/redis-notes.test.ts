import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import * as Y from 'yjs';
import type { WebsocketProvider } from 'y-websocket';
import { NOTES, NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX } from '@campus/protocol';
import {
  createGroup,
  openNotesClient,
  signUp,
  sleep,
  until,
  upgradeClock,
  upgradeStatus,
  type NotesClient,
  type Student,
} from './notes-helpers';
import { requireRedis, TEST_REDIS_URL, testRedisConfig } from './support/redis';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { rowOf } from './support/sql';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * Group notes on two nodes sharing one database (one SQLite file in one DATA_DIR, or one PostgreSQL
 * schema) and one Redis, as behind a load balancer. Node B runs in this process (its Redis link is at hand
 * to lose messages on purpose); node A runs main.ts in a process of its own, because @y/websocket-server
 * keeps its documents in a module global: two nodes in one process would share one document per group and
 * hide everything that has to cross nodes. Without Redis these tests fail, they are never skipped.
 */
// A prefix per run: runs sharing the Redis never hear each other. Node B's periodic catch-up is a minute
// away, so only what a test does (Redis, a reconnect, a client's sync) brings it what it missed.
const redis = testRedisConfig();
const channel = `${redis.prefix}:notes`;

let nodeA: ServerProcess;
let nodeB: TestServer;
let publisher: Redis;
let ana: Student;
let ben: Student;
let carl: Student;
let eve: Student;
const providers: WebsocketProvider[] = [];

beforeAll(async () => {
  await requireRedis();
  nodeB = await startTestServer({ config: { redis }, now: upgradeClock.now });
  nodeA = await startServerProcess({
    DATA_DIR: nodeB.dataDir,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: redis.prefix,
    ...sharedDatabase(nodeB),
  });
  publisher = new Redis(TEST_REDIS_URL);
  // Once for the file: sign-ups are rate limited. Each test makes a group of its own.
  ana = await signUp(nodeB, 'Ana');
  ben = await signUp(nodeB, 'Ben');
  carl = await signUp(nodeB, 'Carl');
  eve = await signUp(nodeB, 'Eve');
}, 60_000);
afterEach(() => {
  for (const provider of providers.splice(0)) provider.destroy();
});
afterAll(async () => {
  publisher?.disconnect();
  await nodeA?.stop();
  await nodeB?.close();
});

/**
 * On PostgreSQL (the server-pg project), node A's DATABASE_URL names node B's throwaway schema: the server
 * has no variable for a schema, so it goes into the URL's `options` (pg passes it at connect). On SQLite
 * the shared DATA_DIR is the shared database.
 */
function sharedDatabase(node: TestServer): Record<string, string> {
  const { database } = node.deps.config;
  if (database.kind !== 'postgres') return {};
  const url = new URL(database.url);
  if (database.schema) url.searchParams.set('options', `-c search_path=${database.schema}`);
  return { DATABASE_URL: url.toString() };
}

const open = (node: Pick<TestServer, 'url'>, student: Student, groupId: string) =>
  openNotesClient(node, student, groupId, providers);

/** Two nodes and a Redis on a shared machine: more patience than one server needs. */
const eventually = (check: () => boolean | Promise<boolean>, what: string) => until(check, what, 10_000);

const synced = (...clients: NotesClient[]) =>
  eventually(() => clients.every((c) => c.provider.synced), 'the clients to sync');

const storedRows = async (groupId: string) =>
  (await rowOf<{ n: number }>(
    nodeB,
    'SELECT count(*) AS n FROM group_notes_updates WHERE group_id = ?',
    groupId,
  ))!.n;

/** A new group of Ana and Ben (and `more`). */
const newGroup = (...more: Student[]) => createGroup(nodeB, ana, [ben, ...more]);

/** Runs `away` while node B hears nothing on the notes channel (its messages are lost, not delayed). */
async function whileBMissesMessages(away: () => Promise<void>): Promise<void> {
  const sub = nodeB.redis!.subscriber;
  await sub.unsubscribe(channel);
  try {
    await away();
  } finally {
    await sub.subscribe(channel);
  }
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A whole notes document holding `text`, as another node would publish it. */
function notesUpdate(text: string, root: string = NOTES.textName): Uint8Array {
  const doc = new Y.Doc();
  doc.getText(root).insert(0, text);
  return Y.encodeStateAsUpdate(doc);
}

describe('group notes on two nodes (REDIS_URL)', () => {
  it('two members on different nodes see each other’s edits live, and each edit is stored once', async () => {
    const groupId = await newGroup();
    const a = open(nodeA, ana, groupId);
    const b = open(nodeB, ben, groupId);
    await synced(a, b);

    a.text.insert(0, 'Exam on Friday. ');
    await eventually(() => b.text.toString() === 'Exam on Friday. ', 'Ben on node B to see Ana’s line');
    b.text.insert(b.text.length, 'Bring calculators.');
    await eventually(
      () => a.text.toString() === 'Exam on Friday. Bring calculators.',
      'Ana on node A to see Ben’s line',
    );
    await sleep(200);
    // The node that applied an edit first stored it; the other applied it from Redis without storing it.
    expect(await storedRows(groupId)).toBe(2);
    expect(a.closes).toEqual([]);
    expect(b.closes).toEqual([]);
  });

  it('concurrent edits on both nodes converge, and reconnecting to either node gets the same text', async () => {
    const groupId = await newGroup();
    const a = open(nodeA, ana, groupId);
    const b = open(nodeB, ben, groupId);
    await synced(a, b);

    for (let i = 0; i < 5; i++) {
      a.text.insert(0, `a${i} `);
      b.text.insert(b.text.length, ` b${i}`);
      await sleep(5);
    }
    const complete = (text: string) =>
      [0, 1, 2, 3, 4].every((i) => text.includes(`a${i} `) && text.includes(` b${i}`));
    await eventually(
      () => a.text.toString() === b.text.toString() && complete(a.text.toString()),
      'both to converge on every edit',
    );
    const text = a.text.toString();

    // Each member again, on the other node this time; and the same members again on their own node.
    const reopened = [
      open(nodeB, ana, groupId),
      open(nodeA, ben, groupId),
      open(nodeA, ana, groupId),
      open(nodeB, ben, groupId),
    ];
    await synced(...reopened);
    for (const client of reopened) expect(client.text.toString()).toBe(text);
  });

  it('an edit whose message node B lost reaches node B when its Redis connection comes back', async () => {
    const groupId = await newGroup();
    const a = open(nodeA, ana, groupId);
    const b = open(nodeB, ben, groupId);
    await synced(a, b);
    const sub = nodeB.redis!.subscriber;

    // Off the channel (so the resubscribe after the reconnect leaves it off): only the reconnect's
    // catch-up can bring the edit to node B.
    await sub.unsubscribe(channel);
    try {
      a.text.insert(0, 'written while B was away');
      await sleep(300);
      expect(b.text.toString()).toBe('');

      sub.disconnect(true);
      await eventually(() => b.text.toString() === 'written while B was away', 'node B to catch up');
    } finally {
      await sub.subscribe(channel);
    }
  });

  it('an edit whose message node B lost reaches it at a client’s sync, and a later edit built on it too', async () => {
    const groupId = await newGroup(carl);
    const a = open(nodeA, ana, groupId);
    const b = open(nodeB, ben, groupId);
    await synced(a, b);

    await whileBMissesMessages(async () => {
      a.text.insert(0, 'first ');
      await sleep(300);
      expect(b.text.toString()).toBe('');
    });
    // Carl opens the notes on node B: before answering his sync, node B reads what it missed, and Ben (on
    // node B all along) gets it too.
    const c = open(nodeB, carl, groupId);
    await eventually(
      () => c.text.toString() === 'first ' && b.text.toString() === 'first ',
      'node B to catch up at Carl’s sync',
    );

    await whileBMissesMessages(async () => {
      a.text.insert(a.text.length, 'second ');
      await sleep(300);
      expect(b.text.toString()).toBe('first ');
    });
    // This edit builds on the lost one: node B cannot apply it alone, so it reads the database.
    a.text.insert(a.text.length, 'third');
    // Both of node B's clients (each socket's frames pass their receiver's membership check, which on
    // PostgreSQL answers asynchronously, so one may be a moment behind the other).
    await eventually(
      () => b.text.toString() === 'first second third' && c.text.toString() === 'first second third',
      'node B to catch up at the next edit',
    );
  });

  it('a node that compacts the notes keeps the rows another node stored that it never saw', async () => {
    const groupId = await newGroup();
    const a = open(nodeA, ana, groupId);
    const b = open(nodeB, ben, groupId);
    await synced(a, b);

    await whileBMissesMessages(async () => {
      b.text.insert(0, 'Ben ');
      b.text.insert(b.text.length, 'twice ');
      a.text.insert(0, 'Ana ');
      await eventually(() => a.text.toString().includes('twice'), 'Ana to see Ben’s edits');
      await sleep(300);
      expect(b.text.toString()).toBe('Ben twice ');
      // Ben leaves: node B folds the group's rows into one snapshot of its document, which lacks Ana's.
      b.provider.destroy();
      await eventually(async () => (await storedRows(groupId)) === 1, 'node B to compact the notes');
    });
    a.provider.destroy();
    await sleep(200);

    const again = open(nodeB, ben, groupId);
    await synced(again);
    expect(again.text.toString()).toBe(a.text.toString());
    expect(again.text.toString()).toContain('Ana ');
  });

  it('a non-member gets the notes on neither node, while members on both nodes do', async () => {
    const groupId = await newGroup();
    // Eve shares another group with Ben: she is connected to notes on both nodes, just not to these.
    const other = await createGroup(nodeB, ben, [eve]);
    const protocols = [NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX + eve.token];
    for (const node of [nodeA, nodeB]) {
      upgradeClock.tick();
      expect(await upgradeStatus(`${node.url.replace(/^http/, 'ws')}/notes/${groupId}`, protocols)).toBe(403);
    }
    const eveOnA = open(nodeA, eve, other);
    const eveOnB = open(nodeB, eve, other);
    const a = open(nodeA, ana, groupId);
    const b = open(nodeB, ben, groupId);
    await synced(eveOnA, eveOnB, a, b);

    a.text.insert(0, 'members only');
    await eventually(() => b.text.toString() === 'members only', 'Ben on node B to see Ana’s line');
    await sleep(200);
    for (const client of [eveOnA, eveOnB]) {
      expect(client.text.toString()).toBe('');
      expect(client.doc.store.clients.size).toBe(0);
    }
  });

  it('drops oversized and malformed messages on the notes channel without harm, and still applies good ones', async () => {
    const groupId = await newGroup();
    const a = open(nodeA, ana, groupId);
    const b = open(nodeB, ben, groupId);
    await synced(a, b);
    const send = (body: string) => publisher.publish(channel, `another-node\n${body}`);

    const valid = notesUpdate('planted');
    // Counts that make Yjs allocate far more than the bytes sent (a 12-byte frame once cost 268 MB).
    const bomb = Uint8Array.from([0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x00, 0x00, 0x00]);
    const hostile = [
      'x'.repeat(3 * 1024 * 1024),
      `u\n${groupId}\n${'A'.repeat(2 * NOTES.maxDocBytes)}`,
      'no newline at all',
      `u\n../${groupId}\n${base64(valid)}`,
      `z\n${groupId}\n${base64(valid)}`,
      `u\n${groupId}`,
      `u\n${groupId}\n%%% not base64 %%%`,
      `u\n${groupId}\n${base64(bomb)}`,
      `u\n${groupId}\n${base64(valid.subarray(0, valid.byteLength - 3))}`,
      `u\n${groupId}\n${base64(notesUpdate('another root', 'elsewhere'))}`,
    ];
    for (const body of hostile) await send(body);
    // Messages arrive in order: once this one is applied on both nodes, every one above was handled.
    await send(`u\n${groupId}\n${base64(notesUpdate('from Redis'))}`);
    await eventually(
      () => a.text.toString() === 'from Redis' && b.text.toString() === 'from Redis',
      'both nodes to apply the good message',
    );

    expect(nodeA.child.exitCode).toBeNull();
    for (const url of [nodeA.url, nodeB.url]) expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(a.closes).toEqual([]);
    expect(b.closes).toEqual([]);
    // Nothing else reached the notes: still the members' own edits go through on both nodes.
    expect(a.doc.share.size).toBe(1);
    b.text.insert(b.text.length, ', then Ben');
    await eventually(() => a.text.toString() === 'from Redis, then Ben', 'Ana to see Ben’s edit');
  });
});
