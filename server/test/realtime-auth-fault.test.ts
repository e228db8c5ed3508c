import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { CLOSE_CODES, NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX, PROTOCOL_VERSION } from '@campus/protocol';
import { createGroup } from '../src/modules/groups/service';
import type { DB } from '../src/lib/db/database';
import { upgradeStatus } from './notes-helpers';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

let server: TestServer;
let ann: TestUser;
let groupId: string;

beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'Ann');
  const bob = await createUser(server, 'Bob');
  groupId = (await createGroup(server.deps, ann.id, { name: 'Lab', memberIds: [bob.id] })).id;
});
afterAll(async () => {
  await server.close();
});

/**
 * Every query fails as a broken or locked database would, until `restore`: Kysely's and the engine's reads
 * (the /ws hello looks the session up through the engine's cached statements).
 */
function breakDatabase(): { restore(): void } {
  const healthy: DB = server.deps.db;
  const failing: KyselyPlugin = {
    transformQuery() {
      throw new Error('SQLITE_IOERR: disk I/O error (injected)');
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  server.deps.db = healthy.withPlugin(failing);
  const transactor = server.deps.transactor;
  const read = vi
    .spyOn(transactor, 'read')
    .mockRejectedValue(new Error('SQLITE_IOERR: disk I/O error (injected)'));
  return {
    restore: () => {
      server.deps.db = healthy;
      read.mockRestore();
    },
  };
}

/** The HTTP status of a notes upgrade, or 101 if a socket opened. */
function notesUpgradeStatus(token: string): Promise<number> {
  const url = `${server.url.replace(/^http/, 'ws')}/notes/${groupId}`;
  return upgradeStatus(url, [NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX + token]);
}

describe('a database fault during sign-in is not a bad session', () => {
  it('closes /ws with retryable 1011, not 4401; the same token then signs in', async () => {
    const broken = breakDatabase();
    let code: number;
    try {
      const client = await WsClient.open(server);
      client.send({ type: 'hello', v: PROTOCOL_VERSION, token: ann.token });
      code = await client.waitClose();
    } finally {
      broken.restore();
    }
    expect(code).toBe(CLOSE_CODES.serverError);
    const again = await WsClient.connect(server, ann);
    expect(again.frames[0]).toMatchObject({ type: 'welcome', userId: ann.id });
    again.close();
  });

  it('answers the notes upgrade 500, not 401; the same token then opens it', async () => {
    const broken = breakDatabase();
    let status: number;
    try {
      status = await notesUpgradeStatus(ann.token);
    } finally {
      broken.restore();
    }
    expect(status).toBe(500);
    expect(await notesUpgradeStatus(ann.token)).toBe(101);
  });

  it('still closes 4401 for a token that is not a session', async () => {
    const client = await WsClient.open(server);
    client.send({ type: 'hello', v: PROTOCOL_VERSION, token: 'x'.repeat(32) });
    expect(await client.waitClose()).toBe(CLOSE_CODES.unauthorized);
  });
});
