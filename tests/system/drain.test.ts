import { afterEach, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../packages/protocol/src';
import { writeDirectMessage, type SyncClient } from '../../packages/sync/src';
import { startTestServer } from '../../server/test/support/test-server';
import { startBalancer, type Balancer } from './support/balancer';
import {
  FAST,
  addStudent,
  newDevice,
  newDeviceDatabase,
  startSystemServer,
  waitFor,
  type TestServer,
} from './support/harness';
import { recordingWire } from './support/wire';

let client: SyncClient | undefined;
let balancer: Balancer | undefined;
const servers: TestServer[] = [];

afterEach(async () => {
  await client?.stop();
  client = undefined;
  await balancer?.close();
  balancer = undefined;
  // The second node first: both share one database folder, which each close removes.
  for (const server of servers.splice(0)) await server.close();
});

describe('a node draining on SIGTERM, behind a load balancer', () => {
  it('sends its sync clients to the other node at once (1012), where their writes carry on', async () => {
    const first = await startSystemServer();
    servers.push(first);
    const me = await addStudent(first, 'Ana', 'Drain');
    const bo = await addStudent(first, 'Bo', 'Drain');
    // A second node on the same database, as several nodes share PostgreSQL.
    const second = await startTestServer({
      config: { dataDir: first.dataDir },
      realtime: { ratePerSecond: 100_000, rateBurst: 100_000 },
    });
    servers.unshift(second);
    balancer = await startBalancer([first.port, second.port]);

    const wire = recordingWire();
    client = newDevice({
      server: first,
      student: me,
      db: newDeviceDatabase(me),
      wire,
      port: balancer.port,
      // The real backoff: after any other close the next attempt waits at least 1 s (1–1.5 s at 0.5).
      timing: { ...FAST, reconnectMinMs: 1000, reconnectMaxMs: 5000 },
      random: () => 0.5,
    });
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    const before = await client.run(writeDirectMessage, bo.ref, 'before the deploy');
    await waitFor(async () => expect((await client!.db.messages.get(before))?.status).toBe('sent'));
    expect(balancer.routed).toEqual([0]);

    const drained = first.drain(5000);
    await waitFor(() => expect(wire.closeCodes).toContain(CLOSE_CODES.serviceRestart));
    const closedAt = Date.now();
    await waitFor(() => expect(wire.connections).toBe(2));
    // Half of reconnectMinMs (random 0.5), not the backoff's 1 s.
    expect(Date.now() - closedAt).toBeLessThan(900);
    await waitFor(() => client!.getState().status === 'online');
    await drained;
    // The balancer found the first node's listener closed: the new session is the second node's.
    expect(balancer.routed).toEqual([0, 1]);
    expect(second.deps.realtime.isOnline(me.id)).toBe(true);
    expect(client.getState().refusedCode).toBeUndefined();
    await first.stop();

    const after = await client.run(writeDirectMessage, bo.ref, 'after the deploy');
    await waitFor(async () => expect((await client!.db.messages.get(after))?.status).toBe('sent'));
    const stored = second.deps.sqlite
      .prepare('SELECT content FROM direct_messages WHERE id IN (?, ?) ORDER BY seq')
      .pluck()
      .all(before, after);
    expect(stored).toEqual(['before the deploy', 'after the deploy']);
  });
});
