import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/**
 * Issue 9, item 5: presence and typing go only between contacts (a direct chat with a message, or a group).
 * A stranger who knows a user id must learn nothing: no online status, no last-active time, and their typing
 * never reaches the user.
 */
let server: TestServer;
let ann: TestUser;
let bob: TestUser;
let cleo: TestUser;
let sam: TestUser;

const typingFrom = (user: TestUser) => (f: Frame) => f.type === 'peer_typing' && f.fromUserId === user.id;
const about = (type: string, user: TestUser) => (f: Frame) => f.type === type && f.userId === user.id;
/** The online list answered to a join_chat (the first one came with the welcome). */
const joinAnswer = (client: WsClient) =>
  client.waitFor((f) => f.type === 'online_users_list' && client.of('online_users_list').indexOf(f) > 0);

beforeAll(async () => {
  server = await startTestServer({ realtime: { onlineCountEveryMs: 50 } });
  ann = await createUser(server, 'Ann');
  bob = await createUser(server, 'Bob');
  cleo = await createUser(server, 'Cleo');
  sam = await createUser(server, 'Sam');
  // Bob has written to Ann (a direct contact); Cleo shares a group with her (a group contact, no direct chat).
  const b = await WsClient.connect(server, bob);
  b.mutate({ type: 'send_message', id: randomUUID(), to: ann.id, content: 'hi Ann' });
  await b.waitFor((f) => f.type === 'ack');
  b.close();
  await b.waitClose();
  const created = await server.post('/api/groups', { name: 'Lab', memberIds: [ann.id] }, cleo.token);
  expect(created.status).toBe(201);
});
afterAll(() => server.close());

describe('presence and typing between strangers', () => {
  it('a stranger opening a chat hears nothing and their typing is dropped; contacts get both', async () => {
    const a = await WsClient.connect(server, ann);
    const s = await WsClient.connect(server, sam);
    const b = await WsClient.connect(server, bob);
    const c = await WsClient.connect(server, cleo);
    expect(b.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [ann.id] });
    expect(c.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [ann.id] });

    // Sam opens a chat with Ann: she is online, yet to him she looks offline.
    s.send({ type: 'join_chat', peerId: ann.id });
    expect(await joinAnswer(s)).toEqual({ type: 'online_users_list', userIds: [] });
    // Bob, a contact, hears her in the same place.
    b.send({ type: 'join_chat', peerId: ann.id });
    expect(await joinAnswer(b)).toEqual({ type: 'online_users_list', userIds: [ann.id] });

    // Sam's typing never reaches Ann, and gets no answer that would tell him anything.
    s.send({ type: 'typing', roomId: ann.id });
    s.send({ type: 'stop_typing', roomId: ann.id });
    // Contacts' typing does, both kinds, both ways.
    b.send({ type: 'typing', roomId: ann.id });
    c.send({ type: 'typing', roomId: ann.id });
    await a.waitFor(typingFrom(bob));
    await a.waitFor(typingFrom(cleo));
    a.send({ type: 'typing', roomId: bob.id });
    a.send({ type: 'typing', roomId: sam.id });
    await b.waitFor(typingFrom(ann));

    // Ann leaves: her contacts hear it with her last-active time, Sam does not.
    a.close();
    expect(typeof (await b.waitFor(about('user_offline', ann))).lastActiveAt).toBe('string');
    await c.waitFor(about('user_offline', ann));
    await WsClient.settle();
    expect(a.frames.filter(typingFrom(sam))).toEqual([]);
    expect(a.frames.filter((f) => f.type === 'peer_stop_typing' && f.fromUserId === sam.id)).toEqual([]);
    expect(s.frames.filter((f) => f.type.startsWith('user_') || f.type.startsWith('peer_'))).toEqual([]);
    expect(s.of('message_error')).toEqual([]);
    for (const client of [s, b, c]) client.close();
  });

  it('a first message makes two students contacts: presence and typing start without reconnecting', async () => {
    const dee = await createUser(server, 'Dee');
    const eve = await createUser(server, 'Eve');
    const e = await WsClient.connect(server, eve);
    const d = await WsClient.connect(server, dee);

    // Strangers still: Dee opens the chat and types, and learns nothing.
    d.send({ type: 'join_chat', peerId: eve.id });
    expect(await joinAnswer(d)).toEqual({ type: 'online_users_list', userIds: [] });
    d.send({ type: 'typing', roomId: eve.id });

    d.mutate({ type: 'send_message', id: randomUUID(), to: eve.id, content: 'hello Eve' });
    await d.waitFor((f) => f.type === 'ack');
    // Each hears at once that the other is online.
    await d.waitFor(about('user_online', eve));
    await e.waitFor(about('user_online', dee));
    expect(e.frames.filter(typingFrom(dee))).toEqual([]);

    d.send({ type: 'typing', roomId: eve.id });
    await e.waitFor(typingFrom(dee));
    e.send({ type: 'typing', roomId: dee.id });
    await d.waitFor(typingFrom(eve));
    e.close();
    expect(typeof (await d.waitFor(about('user_offline', eve))).lastActiveAt).toBe('string');
    d.close();
  });
});
