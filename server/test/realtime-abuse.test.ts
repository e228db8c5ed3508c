import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_ERRORS } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer({ realtime: { ratePerSecond: 1, rateBurst: 5 } });
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
});
