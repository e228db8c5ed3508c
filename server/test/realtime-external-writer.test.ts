import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRealtimeEngine } from '../src/realtime/engine';
import { audience } from '../src/realtime/audiences';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient } from './support/ws-client';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The seed or an admin command writes the same database while the server runs (the README's own flow). */
describe('a second process writing the change log', () => {
  it('collides with nothing: the server moves past its seqs and delivers its changes live, in order', async () => {
    const ann = await createUser(server, 'Ann');
    const ws = await WsClient.connect(server, ann);
    const before = server.engine.transactor.currentSeq();

    // Another process: its own connection and hub on the same file, writing two changes for Ann.
    const other = new SQLite(path.join(server.dataDir, 'campus-talk.sqlite'));
    other.pragma('busy_timeout = 5000');
    const cli = createRealtimeEngine(other, { now: Date.now });
    await cli.transactor.commit(async (tx) => {
      tx.emit({ type: 'notification_read', notificationId: 'from-the-cli-1' }, [audience.user(ann.id)]);
      tx.emit({ type: 'notification_read', notificationId: 'from-the-cli-2' }, [audience.user(ann.id)]);
    });
    cli.close();
    other.close();

    // The server's next write must not reuse those seqs.
    const own = await server.deps.transactor.commit(async (tx) =>
      tx.emit({ type: 'notification_read', notificationId: 'from-the-server' }, [audience.user(ann.id)]),
    );
    expect(own.seq).toBe(before + 3);
    await ws.waitFor((f) => f.type === 'notification_read' && f.notificationId === 'from-the-server');
    const heard = ws.of('notification_read').map((f) => [f.seq, f.notificationId]);
    expect(heard).toEqual([
      [before + 1, 'from-the-cli-1'],
      [before + 2, 'from-the-cli-2'],
      [before + 3, 'from-the-server'],
    ]);
    ws.close();
  });
});
