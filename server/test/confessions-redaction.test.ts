import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';
import { WsClient } from './support/ws-client';
import {
  announcePosts,
  changesAbout,
  createStudent,
  postAs,
  postUnannounced,
  sendNotices,
  student,
} from './confessions-helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const pulledBy = async (cursor: number) => {
  const late = await createStudent(server, 'Late');
  const ws = await WsClient.connect(server, late, { pull: cursor });
  ws.close();
  return JSON.stringify(ws.frames);
};

describe('a deleted confession’s text', () => {
  it('is not in a pull from before its post, even for a student who signed up after the deletion', async () => {
    const author = await student(server, 'DelAuthor');
    await postAs(server, author, 'warm-up');
    await announcePosts(server);
    const before = server.engine.transactor.currentSeq();
    const secret = 'I regret this: my name is on the door of room 12';
    const id = await postAs(server, author, secret);
    await announcePosts(server);
    expect(await pulledBy(before)).toContain(secret);

    const del = await server.call('DELETE', `/api/confessions/${id}`, undefined, author.token);
    expect(del.status).toBe(200);
    const pulled = await pulledBy(before);
    expect(pulled).not.toContain(secret);
    // The announcement became the deletion, at the same seq and for the same audiences; the deletion's
    // own announcement follows a few seconds later, in a commit of its own.
    await sendNotices(server);
    const changes = await changesAbout(server, id);
    expect(changes.map((c) => c.type)).toEqual([
      'confession_deleted',
      'confession_mine',
      'confession_deleted',
    ]);
    expect(changes[0]!.audiences).toEqual(changes[2]!.audiences);
    expect(changes.some((c) => c.payload.includes(secret))).toBe(false);
  });

  it('is never announced when deleted before the publisher’s delay ran out', async () => {
    const author = await student(server, 'QuickRegret');
    const id = await postUnannounced(server, author, 'no, forget it');
    const del = await server.call('DELETE', `/api/confessions/${id}`, undefined, author.token);
    expect(del.status).toBe(200);
    await announcePosts(server);
    await sendNotices(server);
    expect((await changesAbout(server, id)).map((c) => c.type)).toEqual(['confession_deleted']);
  });
});
