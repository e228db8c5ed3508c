import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { groupSchema, type GroupMessage } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';
import { upload } from './chat-rest-helpers';

let server: TestServer;
let ana: TestUser;
let ben: TestUser;
let cleo: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [ana, ben, cleo] = await Promise.all([
    createUser(server, 'Ana'),
    createUser(server, 'Ben'),
    createUser(server, 'Cleo'),
  ]);
});
afterAll(async () => {
  await server.close();
});

const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

it('a group made over REST reaches its members live, and they talk in it at once; REST agrees with what sync delivered', async () => {
  const benWs = await WsClient.connect(server, ben);
  const cleoWs = await WsClient.connect(server, cleo);

  const res = await server.post('/api/groups', { name: 'Robotics', memberIds: [ben.id] }, ana.token);
  expect(res.status).toBe(201);
  const group = groupSchema.parse(res.body);

  const joined = await benWs.waitFor((f) => f.type === 'group_joined');
  expect(joined.group).toEqual(group);

  // Ben's open connection is already in the group's audience: an upload by Ana arrives without reconnecting.
  const sent = await upload(server, `/api/groups/${group.id}/attachments`, ana.token, {
    bytes: PNG,
    name: 'bot.png',
  });
  expect(sent.status).toBe(201);
  const live = await benWs.waitFor((f) => f.type === 'receive_group_message');
  expect(live.message).toEqual(sent.body);

  // And Ben can write to it over the socket straight away.
  const id = randomUUID();
  benWs.mutate({ type: 'send_group_message', id, groupId: group.id, content: 'on my way' });
  await benWs.waitFor((f) => f.type === 'ack');

  const history = (await server.get(`/api/groups/${group.id}/messages`, ana.token))
    .body as unknown as GroupMessage[];
  expect(history.map((m) => m.id)).toEqual([id, (sent.body as { id: string }).id]);

  // Cleo is not a member: she saw none of it.
  await WsClient.settle();
  expect(cleoWs.of('group_joined')).toEqual([]);
  expect(cleoWs.of('receive_group_message')).toEqual([]);
  benWs.close();
  cleoWs.close();
});
