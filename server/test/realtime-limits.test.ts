import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_ERRORS } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';
import { rowOf } from './support/sql';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer({ realtime: { helloTimeoutMs: 150, ratePerSecond: 1, rateBurst: 5 } });
  ann = await createUser(server, 'Ann');
  bob = await createUser(server, 'Bob');
});
afterAll(() => server.close());

describe('realtime limits', () => {
  it('closes a connection that never says hello with 4408', async () => {
    const c = await WsClient.open(server);
    expect(await c.waitClose()).toBe(4408);
  });

  it('rate-limits a user sending too fast, and stores only what was accepted', async () => {
    const a = await WsClient.connect(server, ann);
    for (let i = 0; i < 8; i++)
      a.mutate({ type: 'send_message', id: randomUUID(), to: bob.id, content: `fast ${i}` });
    await a.waitFor((_f) => a.of('ack').length + a.of('message_error').length === 8);
    expect(a.of('ack')).toHaveLength(5);
    expect(a.of('message_error')[0]).toMatchObject({
      error: REALTIME_ERRORS.rateLimited,
      context: 'send_message',
      deviceId: a.deviceId,
    });
    const n = (
      await rowOf<{ n: number }>(
        server,
        "SELECT count(*) AS n FROM direct_messages WHERE content LIKE 'fast %'",
      )
    )?.n;
    expect(n).toBe(5);
    a.close();
  });

  it("refuses a mutation carrying another user's device id", async () => {
    const b = await WsClient.connect(server, bob);
    const mid = b.mutate({ type: 'send_message', id: randomUUID(), to: ann.id, content: 'mine' });
    await b.waitFor((f) => f.type === 'ack' && f.mid === mid);
    const a = await WsClient.connect(server, ann);
    a.send({
      type: 'send_message',
      id: randomUUID(),
      to: bob.id,
      content: 'spoof',
      deviceId: b.deviceId,
      mid: 99,
    });
    expect(await a.waitFor((f) => f.type === 'message_error')).toMatchObject({
      deviceId: b.deviceId,
      mid: 99,
    });
    const n = (
      await rowOf<{ n: number }>(server, "SELECT count(*) AS n FROM direct_messages WHERE content = 'spoof'")
    )?.n;
    expect(n).toBe(0);
    a.close();
    b.close();
  });
});
