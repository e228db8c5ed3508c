import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLOSE_CODES, PROTOCOL_VERSION, REALTIME_ERRORS } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer({ realtime: { ratePerSecond: 1, rateBurst: 5, maxConnectionsPerUser: 3 } });
  ann = await createUser(server, 'Ann');
  bob = await createUser(server, 'Bob');
});
afterAll(() => server.close());

describe('realtime frames a bot could spam', () => {
  it('rate-limits pulls: each one reads the change log or builds a snapshot', async () => {
    const a = await WsClient.connect(server, ann, { pull: false });
    for (let i = 0; i < 20; i++) a.send({ type: 'pull', cursor: 0 });
    await a.waitFor((f) => f.type === 'message_error' && f.context === 'pull');
    expect(a.of('message_error')[0]).toMatchObject({ error: REALTIME_ERRORS.rateLimited, context: 'pull' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(a.of('sync_reset').length).toBeLessThanOrEqual(5);
    a.close();
  });

  it('rate-limits join_chat and join_group: each one is a query, join_group a write', async () => {
    const a = await WsClient.connect(server, bob, { pull: false });
    for (let i = 0; i < 20; i++) a.send({ type: 'join_chat', peerId: ann.id });
    await a.waitFor((f) => f.type === 'message_error' && f.context === 'join_chat');
    expect(a.of('online_users_list').length).toBeLessThanOrEqual(6);
    for (let i = 0; i < 20; i++) a.send({ type: 'join_group', groupId: 'g1' });
    const refused = await a.waitFor(
      (f) => f.type === 'message_error' && f.error === REALTIME_ERRORS.rateLimited && f.context === 'group',
    );
    expect(refused).toMatchObject({ groupId: 'g1' });
    a.close();
  });

  it('refuses a connection beyond the per-user limit at hello, and takes one again when a slot frees', async () => {
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await WsClient.connect(server, ann, { pull: false }));
    const extra = new WebSocket(server.url.replace('http', 'ws') + '/ws');
    await new Promise((resolve) => extra.once('open', resolve));
    extra.send(JSON.stringify({ type: 'hello', v: PROTOCOL_VERSION, token: ann.token }));
    const code = await new Promise<number>((resolve) => extra.once('close', resolve));
    expect(code).toBe(CLOSE_CODES.tooManyConnections);

    held[0]!.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await WsClient.connect(server, ann, { pull: false });
    again.close();
    for (const client of held.slice(1)) client.close();
  });
});
