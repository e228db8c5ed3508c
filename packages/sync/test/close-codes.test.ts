import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@campus/protocol';
import type { SyncClient } from '../src';
import { FakeServer, waitFor } from './support/fake-server';
import { ME, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

describe('how the client takes a close code on hello', () => {
  it('a server fault (1011) is retried with backoff and never signs out', async () => {
    const server = new FakeServer(ME);
    server.closeOnHello = CLOSE_CODES.serverError;
    client = makeClient(server);
    client.start();
    // Several attempts, each refused with 1011: the client keeps trying.
    await waitFor(() => expect(server.sockets.length).toBeGreaterThanOrEqual(3));
    expect(client.getState().refusedCode).toBeUndefined();
    // The database is back: the same token signs in.
    server.closeOnHello = null;
    await waitFor(() => client!.getState().status === 'online');
    expect(client.getState().refusedCode).toBeUndefined();
  });

  it('a refused session (4401) is final: no reconnect, and the client reports it', async () => {
    const server = new FakeServer(ME);
    server.closeOnHello = CLOSE_CODES.unauthorized;
    client = makeClient(server);
    client.start();
    await waitFor(() => expect(client!.getState().refusedCode).toBe(CLOSE_CODES.unauthorized));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.sockets).toHaveLength(1);
  });
});
