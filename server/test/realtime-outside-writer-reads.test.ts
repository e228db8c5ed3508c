import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup } from '../src/modules/groups/service';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;
let groupId: string;
beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'Ann');
  bob = await createUser(server, 'Bob');
  groupId = (await createGroup(server.deps, ann.id, { name: 'Readers', memberIds: [bob.id] })).id;
  // Ann has read everything in the group: opening it again writes nothing.
  const warm = await WsClient.connect(server, ann);
  warm.send({ type: 'join_group', groupId });
  await warm.waitFor((f) => f.type === 'group_read');
  warm.close();
  // Its going offline is a write (last_active_at): done before the outside writer takes the file.
  const offline = server.deps.sqlite.prepare('SELECT last_active_at FROM users WHERE id = ?').pluck();
  const before = offline.get(ann.id);
  while (offline.get(ann.id) === before) await WsClient.settle(10);
});
afterAll(() => server.close());

/**
 * The seed CLI writing beside the server holds the file's write lock for its transaction. What a connection
 * only reads (sign-in, a snapshot, a catch-up's receipts, opening a group already read, a chat, typing) must
 * not wait for it: the server's own write lock attempt would block the event loop for the busy timeout (5 s).
 */
describe('reads while another process holds the write lock of the database file', () => {
  it('sign-in, snapshot, join_group, join_chat and typing answer at once', async () => {
    const outside = new SQLite(path.join(server.dataDir, 'campus-talk.sqlite'));
    outside.exec('BEGIN IMMEDIATE');
    try {
      const started = Date.now();
      const ws = await WsClient.connect(server, ann);
      expect(ws.of('sync_reset')).toHaveLength(1);
      ws.send({ type: 'join_group', groupId });
      ws.send({ type: 'join_chat', peerId: bob.id });
      ws.send({ type: 'typing', groupId });
      ws.send({ type: 'ping', t: 1 });
      await ws.waitFor((f) => f.type === 'pong');
      // A blocked event loop would fire this late too.
      await WsClient.settle(150);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(ws.of('message_error')).toEqual([]);
      ws.close();
    } finally {
      outside.exec('ROLLBACK');
      outside.close();
    }
  });
});
