import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, PROTOCOL_VERSION } from '../../packages/protocol/src';
import { writeDirectMessage, type EphemeralState, type SyncClient } from '../../packages/sync/src';
import { startFlakyProxy, type FlakyProxy } from './support/flaky-proxy';
import {
  FAST,
  addStudent,
  fakeNetwork,
  newDevice,
  newDeviceDatabase,
  startSystemServer,
  waitFor,
  type DeviceOptions,
  type TestServer,
} from './support/harness';
import { recordingWire, type Wire } from './support/wire';

let server: TestServer;
let proxy: FlakyProxy;
let clients: SyncClient[] = [];

beforeAll(async () => {
  server = await startSystemServer();
  proxy = await startFlakyProxy({ targetPort: server.port, seed: 1, randomCuts: false });
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  clients = [];
  proxy.dropDownstream = false;
  proxy.dropUpstream = false;
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

/** A device of a new student, through the proxy, not started yet. */
async function device(wire: Wire, options: Partial<DeviceOptions> = {}): Promise<SyncClient> {
  const student = await addStudent(server, 'Ana', 'Connection');
  const client = newDevice({
    server,
    student,
    db: newDeviceDatabase(student),
    port: proxy.port,
    wire,
    ...options,
    timing: { ...FAST, ...options.timing },
  });
  clients.push(client);
  return client;
}

describe('connection to the real server', () => {
  it('says hello with the token first, reports its status, and reconnects after a cut', async () => {
    const student = await addStudent(server, 'Ana', 'Hello');
    const wire = recordingWire();
    const client = newDevice({
      server,
      student,
      db: newDeviceDatabase(student),
      port: proxy.port,
      wire,
      timing: FAST,
    });
    clients.push(client);
    const seen: EphemeralState['status'][] = [];
    // The state also changes with presence the server sends (online list, count): keep status changes.
    client.subscribe(() => {
      const { status } = client.getState();
      if (seen.at(-1) !== status) seen.push(status);
    });
    client.start();
    await waitFor(() => client.getState().status === 'online');
    expect(wire.sent[0]).toEqual({ type: 'hello', v: PROTOCOL_VERSION, token: student.token });
    proxy.cutAll();
    await waitFor(() => expect(wire.connections).toBe(2));
    await waitFor(() => client.getState().status === 'online');
    expect(seen).toEqual(['connecting', 'online', 'offline', 'connecting', 'online']);
  });

  it('drops the link when the device goes offline, queues writes, and reconnects as soon as it is back', async () => {
    const bo = await addStudent(server, 'Bo', 'Connection');
    const network = fakeNetwork();
    const wire = recordingWire();
    const client = await device(wire, { network: network.signal });
    client.start();
    await waitFor(() => client.getState().status === 'online');

    network.set(false);
    expect(client.getState().status).toBe('offline');
    await client.run(writeDirectMessage, bo.ref, 'written offline');
    // No reconnect attempts while the device says it is offline, however long it lasts.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(wire.connections).toBe(1);
    expect(wire.sentOf('send_message')).toHaveLength(0);
    expect(await client.db.outbox.count()).toBe(1);

    network.set(true);
    await waitFor(() => client.getState().status === 'online');
    await waitFor(() => expect(wire.sentOf('send_message')).toHaveLength(1));
    await waitFor(async () => expect(await client.db.outbox.count()).toBe(0));
    expect(wire.connections).toBe(2);
  });

  it('gives up on an attempt that gets no welcome in time, and on a silent peer', async () => {
    const wire = recordingWire();
    const client = await device(wire, {
      timing: { connectTimeoutMs: 100, heartbeatMs: 50, deadPeerMs: 200 },
    });
    proxy.dropDownstream = true; // nothing the server says reaches the device
    client.start();
    await waitFor(() => expect(wire.connections).toBeGreaterThanOrEqual(2));
    expect(client.getState().status).not.toBe('online');
    expect(wire.receivedOf('welcome')).toHaveLength(0);
    proxy.dropDownstream = false;
    await waitFor(() => client.getState().status === 'online');
    const before = wire.connections;
    proxy.dropDownstream = true; // pongs go missing from now on
    await waitFor(() => expect(wire.connections).toBeGreaterThan(before));
    expect(wire.sentOf('ping').length).toBeGreaterThan(0);
  });

  it('stops reconnecting when the server refuses the session (4401)', async () => {
    const wire = recordingWire();
    const client = await device(wire, { token: 'x'.repeat(32) });
    client.start();
    await waitFor(() => expect(client.getState().refusedCode).toBe(CLOSE_CODES.unauthorized));
    // Only the hello, and the pull that goes right behind it (pull.test.ts) if it left before the refusal.
    expect(wire.sent.map((f) => f.type).filter((t) => t !== 'pull')).toEqual(['hello']);
    expect(wire.sentOf('pull').length).toBeLessThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 150));
    expect(wire.connections).toBe(1);
    expect(client.getState().status).toBe('offline');
  });
});
