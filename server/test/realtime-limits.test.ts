import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, REALTIME_ERRORS } from '@campus/protocol';
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

  it('remembers a refusal for the rate: a resend after the next mutation was applied is refused again, not acked', async () => {
    const cy = await createUser(server, 'Cy');
    const a = await WsClient.connect(server, cy);
    const frames = Array.from({ length: 6 }, (_, i) => ({
      type: 'send_message',
      id: randomUUID(),
      to: bob.id,
      content: `remembered ${i}`,
    }));
    const mids = frames.map((frame) => a.mutate(frame));
    const sixth = await a.waitFor((f) => f.type === 'message_error' && f.mid === mids[5]);
    expect(sixth).toMatchObject({ code: 'rateLimited', error: REALTIME_ERRORS.rateLimited });
    // A token later the next mutation is applied: the device's last mid is past the refused one now.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const next = a.mutate({ type: 'send_message', id: randomUUID(), to: bob.id, content: 'remembered next' });
    await a.waitFor((f) => f.type === 'ack' && f.mid === next);
    // The refusal's answer was lost (a dropped socket, say): the device sends the sixth again, with a token.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const from = a.frames.length;
    a.mutate(frames[5]!, mids[5]);
    const answer = await a.waitFor(
      (f) => (f.type === 'ack' || f.type === 'message_error') && f.mid === mids[5],
      from,
    );
    expect(answer).toMatchObject({ type: 'message_error', code: 'rateLimited' });
    const stored = await rowOf<{ n: number }>(
      server,
      'SELECT count(*) AS n FROM direct_messages WHERE id = ?',
      frames[5]!.id,
    );
    expect(Number(stored?.n)).toBe(0);
    a.close();
  });

  it('stops reading a connection far over the rate and closes it (4529): nothing past it is applied', async () => {
    const dee = await createUser(server, 'Dee');
    const a = await WsClient.connect(server, dee);
    for (let i = 0; i < 30; i++)
      a.mutate({ type: 'send_message', id: randomUUID(), to: bob.id, content: `flood ${i}` });
    expect(await a.waitClose()).toBe(CLOSE_CODES.rateLimited);
    // Closed once those read before were answered: the burst acknowledged and as many refused (stored), so
    // the next connection sends only the rest of the outbox, not all of it again.
    expect(a.of('ack')).toHaveLength(5);
    expect(a.of('message_error')).toHaveLength(5);
    const stored = await rowOf<{ n: number }>(
      server,
      "SELECT count(*) AS n FROM direct_messages WHERE content LIKE 'flood %'",
    );
    expect(Number(stored?.n)).toBe(5);
    const refused = await rowOf<{ n: number }>(
      server,
      'SELECT count(*) AS n FROM mutation_rejects WHERE device_id = ?',
      a.deviceId,
    );
    expect(Number(refused?.n)).toBe(5);
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
