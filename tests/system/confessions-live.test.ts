import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  writeConfessionDelete,
  writeConfessionPost,
  writeConfessionReaction,
  type CampusDatabase,
  type SyncClient,
} from '../../packages/sync/src';
import { readCursor } from '../../packages/sync/src/meta';
import {
  addStudent,
  newDeviceDatabase,
  startDevice,
  startSystemServer,
  until,
  type Student,
  type TestServer,
  type WireCounts,
} from './support/harness';

let server: TestServer;
const clients: SyncClient[] = [];

beforeAll(async () => {
  server = await startSystemServer();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await server?.close();
});

async function withNickname(student: Student, nickname: string): Promise<void> {
  const res = await server.post('/api/confessions/nickname/set', { nickname }, student.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

function device(student: Student, db: CampusDatabase, counts?: WireCounts): SyncClient {
  const client = startDevice({ server, student, db, ...(counts ? { counts } : {}) });
  clients.push(client);
  return client;
}

/** Counts go out coalesced, a window after the first like: generous, so a slow machine does not flake. */
const COUNTS_TIMEOUT = 10_000;

describe('confessions live between real sync clients', () => {
  it('a post, a like and a deletion reach another student live, and an absent one with one pull', async () => {
    const author = await addStudent(server, 'Asha', 'Live');
    const reader = await addStudent(server, 'Ravi', 'Live');
    const away = await addStudent(server, 'Mina', 'Live');
    await withNickname(author, 'quiet_fox');
    await withNickname(reader, 'loud_owl');
    const fans: Student[] = [];
    for (let i = 0; i < 19; i += 1) {
      const fan = await addStudent(server, `Fan${i}`, 'Live');
      await withNickname(fan, `sys-fan-${i}`);
      fans.push(fan);
    }

    const dbAuthor = newDeviceDatabase(author);
    const dbReader = newDeviceDatabase(reader);
    const dbAway = newDeviceDatabase(away);
    const authorClient = device(author, dbAuthor);
    const readerClient = device(reader, dbReader);

    // The absent student was here once: something in the log, and a cursor after it.
    const warmUp = await authorClient.run(writeConfessionPost, 'first day nerves', '😐', {
      nickname: 'quiet_fox',
    });
    const awayClient = device(away, dbAway);
    await until(async () => (await readCursor(dbAway)) > 0, 10_000, 'the absent student to sync once');
    await until(
      async () => (await dbReader.confessions.get(warmUp)) !== undefined,
      10_000,
      'the warm-up card',
    );
    await awayClient.stop();
    const cursorBefore = await readCursor(dbAway);

    // 1. Posted on one device, the card appears in another student's cached feed, as a stranger's.
    const id = await authorClient.run(writeConfessionPost, 'the vending machine ate my coin', '😢', {
      nickname: 'quiet_fox',
    });
    const doomed = await authorClient.run(writeConfessionPost, 'I will regret this one', '😐', {
      nickname: 'quiet_fox',
    });
    await until(async () => (await dbReader.confessions.get(id)) !== undefined, 10_000, 'the card live');
    expect(await dbReader.confessions.get(id)).toMatchObject({
      content: 'the vending machine ate my coin',
      nickname: 'quiet_fox',
      isMine: false,
    });
    await until(
      async () => (await dbAuthor.confessions.get(id))?.pending !== true,
      10_000,
      "the author's card to stop being pending",
    );
    expect((await dbAuthor.confessions.get(id))?.isMine).toBe(true);

    // 2. A like on the reader's device and 19 more over REST: the count reaches both devices live.
    await readerClient.run(writeConfessionReaction, id, 'funny', true);
    await Promise.all(
      fans.map((fan) => server.post(`/api/confessions/${id}/react`, { reactionType: 'funny' }, fan.token)),
    );
    await until(
      async () => (await dbAuthor.confessions.get(id))?.reactions.funny === 20,
      COUNTS_TIMEOUT,
      "the author's device to show 20 likes",
    );
    await until(
      async () => (await dbReader.confessions.get(id))?.reactions.funny === 20,
      COUNTS_TIMEOUT,
      "the reader's device to show 20 likes",
    );
    expect((await dbReader.confessions.get(id))?.myReactions).toEqual(['funny']);

    // 3. The author deletes a card: it leaves the reader's feed live.
    await until(
      async () => (await dbReader.confessions.get(doomed)) !== undefined,
      10_000,
      'the doomed card',
    );
    await authorClient.run(writeConfessionDelete, doomed);
    await until(async () => (await dbReader.confessions.get(doomed)) === undefined, 10_000, 'the card to go');

    // 4. The absent student comes back: one pull brings the new card with its count, and not the deleted one.
    const counts: WireCounts = { connections: 0, sent: {} };
    device(away, dbAway, counts);
    await until(
      async () => (await dbAway.confessions.get(id))?.reactions.funny === 20,
      10_000,
      'the absent student to catch up',
    );
    expect(await dbAway.confessions.get(id)).toMatchObject({ isMine: false, nickname: 'quiet_fox' });
    expect(await dbAway.confessions.get(doomed)).toBeUndefined();
    expect(counts.connections).toBe(1);
    expect(counts.sent.pull).toBe(1);
    expect(await readCursor(dbAway)).toBeGreaterThan(cursorBefore);
  });
});
