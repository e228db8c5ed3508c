import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SyncClient } from '../src';
import { readCursor } from '../src/meta';
import { FakeServer, waitFor } from './support/fake-server';
import { BO, ME, incoming, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
  vi.restoreAllMocks();
});

describe('a page that fails to apply', () => {
  it('drops the session so the next pull fetches the lost changes again; later pages do not skip them', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = new FakeServer(ME);
    server.pageSize = 1;
    for (const text of ['m0', 'm1', 'm2'])
      server.emit({ type: 'receive_message', seq: 0, message: incoming(BO, text) });
    client = makeClient(server);
    // Storing m1 fails once, as a full disk or an aborted transaction would.
    let failures = 0;
    client.db.messages.hook('creating', (_key, row) => {
      if (row.content === 'm1' && failures === 0) {
        failures += 1;
        throw new Error('QuotaExceededError');
      }
    });
    client.start();
    await waitFor(async () => expect(await client!.db.messages.count()).toBe(3));
    expect(failures).toBe(1);
    expect(await readCursor(client.db)).toBe(3);
    expect(server.framesOfType('pull').map((f) => f.cursor)).toEqual([0, 1]);
    expect((await client.db.conversations.get(BO.id))?.unreadCount).toBe(3);
  });
});
