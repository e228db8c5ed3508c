import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../packages/protocol/src';
import type { SyncClient } from '../../packages/sync/src';
import {
  FAST,
  addStudent,
  newDeviceDatabase,
  startDevice,
  startSystemServer,
  waitFor,
  type TestServer,
} from './support/harness';
import { recordingWire } from './support/wire';

let server: TestServer;
let client: SyncClient | undefined;

beforeAll(async () => {
  server = await startSystemServer();
});
afterEach(async () => {
  await client?.stop();
  client = undefined;
});
afterAll(async () => {
  await server?.close();
});

/** The session lookup fails as a broken database would: the sessions table is gone until `restore`. */
function loseSessionsTable(): { restore(): void } {
  server.deps.sqlite.exec('ALTER TABLE sessions RENAME TO sessions_lost');
  return { restore: () => server.deps.sqlite.exec('ALTER TABLE sessions_lost RENAME TO sessions') };
}

describe('how the client takes a close code on hello, from the real server', () => {
  it('a server fault (1011) is retried with backoff and never signs out', async () => {
    const student = await addStudent(server, 'Ana', 'Fault');
    const wire = recordingWire();
    const broken = loseSessionsTable();
    try {
      client = startDevice({ server, student, db: newDeviceDatabase(student), wire, timing: FAST });
      // Several attempts, each refused with 1011: the client keeps trying.
      await waitFor(() => expect(wire.connections).toBeGreaterThanOrEqual(3));
      expect(wire.closeCodes.slice(0, 2)).toEqual([CLOSE_CODES.serverError, CLOSE_CODES.serverError]);
      expect(client.getState().refusedCode).toBeUndefined();
    } finally {
      broken.restore();
    }
    // The database is back: the same token signs in.
    await waitFor(() => client!.getState().status === 'online');
    expect(client.getState().refusedCode).toBeUndefined();
  });

  it('a refused session (4401) is final: no reconnect, and the client reports it', async () => {
    const student = await addStudent(server, 'Ana', 'Refused');
    const wire = recordingWire();
    const db = newDeviceDatabase(student);
    client = startDevice({ server, student, db, wire, timing: FAST, token: 'x'.repeat(32) });
    await waitFor(() => expect(client!.getState().refusedCode).toBe(CLOSE_CODES.unauthorized));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(wire.connections).toBe(1);
  });
});
