import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentsPage, feedPage } from '../src/modules/confessions/feed';
import { isNicknameAvailable, nicknameOf } from '../src/modules/confessions/nicknames';
import { q } from '../src/modules/confessions/queries';
import type { Tx } from '../src/realtime/transaction';
import { startTestServer, type TestServer } from './support/test-server';
import { createStudent, postAs, student } from './confessions-helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/**
 * Runs `read` while another commit is open in the middle of its writes, then rolls that commit back:
 * `read` must not have seen them (a raw statement on the shared handle would run inside the open
 * transaction).
 */
async function duringRolledBackCommit<T>(write: (tx: Tx) => Promise<void>, read: () => Promise<T>) {
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const commit = server.deps.transactor
    .commit(async (tx) => {
      await write(tx);
      entered();
      await held;
      throw new Error('rolled back');
    })
    .catch(() => undefined);
  await inside;
  const result = read();
  release();
  await commit;
  return result;
}

describe('confession reads never see another commit in progress', () => {
  it('the feed and the comments panel', async () => {
    const reader = await student(server, 'Reader');
    const author = await student(server, 'Writer');
    const id = await postAs(server, author, 'a real one');
    const ghost = `ghost-${randomUUID()}`;
    const insert = (tx: Tx) =>
      tx.run(
        q.insertConfession,
        randomUUID(),
        author.id,
        'Writer-nick',
        ghost,
        '😊',
        null,
        new Date().toISOString(),
      );
    const page = await duringRolledBackCommit(
      async (tx) => void (await insert(tx)),
      () =>
        feedPage(server.deps.transactor, { viewerId: reader.id, viewerCollege: null, page: 1, limit: 10 }),
    );
    expect(page.confessions.map((c) => c.content)).toContain('a real one');
    expect(JSON.stringify(page)).not.toContain(ghost);
    expect(page.total).toBe(
      (
        await feedPage(server.deps.transactor, {
          viewerId: reader.id,
          viewerCollege: null,
          page: 1,
          limit: 10,
        })
      ).total,
    );

    const comments = await duringRolledBackCommit(
      async (tx) => {
        await tx.run(
          q.insertComment,
          randomUUID(),
          id,
          reader.id,
          'Reader-nick',
          ghost,
          new Date().toISOString(),
        );
        await tx.run(q.bumpComments, id);
      },
      () => commentsPage(server.deps.transactor, reader.id, id, 1),
    );
    expect(comments).toEqual({ comments: [], total: 0 });
  });

  it('the nickname and the availability check', async () => {
    const shy = await createStudent(server, 'Shy');
    const set = (tx: Tx) =>
      tx.run(q.upsertNickname, shy.id, 'ghostly', 'ghostly', 'ghostly', new Date().toISOString());
    const seen = await duringRolledBackCommit(
      async (tx) => void (await set(tx)),
      async () => ({
        nickname: await nicknameOf(server.deps.transactor, shy.id),
        available: await isNicknameAvailable(server.deps.transactor, randomUUID(), 'ghostly'),
      }),
    );
    expect(seen).toEqual({ nickname: null, available: true });
  });
});
