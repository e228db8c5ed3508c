import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_SERVER_MSG, groupSchema, type Group } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/**
 * Issue 12, blocking and the live connections: a block keeps two people apart in a group they share (no
 * typing, no contact made by the group), a group is not made across a block by its creator, and a block
 * committing while a connection signs in is not lost.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const block = (blocker: TestUser, blocked: TestUser) =>
  server.post('/api/users/blocks', { userId: blocked.id }, blocker.token);
const newGroup = async (creator: TestUser, members: TestUser[]): Promise<Group> => {
  const res = await server.post(
    '/api/groups',
    { name: 'Study', memberIds: members.map((m) => m.id) },
    creator.token,
  );
  expect(res.status).toBe(201);
  return groupSchema.parse(res.body);
};
const groupTypingFrom = (user: TestUser) => (f: Frame) =>
  f.type === 'group_member_typing' && f.fromUserId === user.id;
const typingFrom = (user: TestUser) => (f: Frame) => f.type === 'peer_typing' && f.fromUserId === user.id;
const onlineOf = (user: TestUser) => (f: Frame) => f.type === 'user_online' && f.userId === user.id;
const dm = async (client: WsClient, to: TestUser) => {
  const mid = client.mutate({ type: 'send_message', id: randomUUID(), to: to.id, content: 'hi' });
  return client.waitFor((f) => (f.type === 'ack' || f.type === 'message_error') && f.mid === mid);
};

/** Students with real accounts, one per name, in order. */
async function students<N extends string[]>(...names: N): Promise<{ [K in keyof N]: TestUser }> {
  const users: TestUser[] = [];
  for (const name of names) users.push(await createUser(server, name));
  return users as { [K in keyof N]: TestUser };
}

/**
 * Holds the next sign-in's contact read (the session hooks' `open`) after it has read, until released: a
 * block can then commit between the read and the connection taking its result.
 */
function holdNextSignInRead() {
  const transactor = server.deps.transactor;
  const original = transactor.read.bind(transactor);
  let reached!: () => void;
  let release!: () => void;
  const read = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  transactor.read = async <T>(fn: Parameters<typeof original<T>>[0]): Promise<T> => {
    const result = await original(fn);
    if (result && typeof result === 'object' && 'contacts' in result) {
      transactor.read = original;
      reached();
      await released;
    }
    return result;
  };
  return { read, release };
}

describe('blocks between group members', () => {
  it('typing in a shared group does not cross a block, either way, live and after signing in again', async () => {
    const [ana, ben, cal] = await students('Ana', 'Ben', 'Cal');
    const group = await newGroup(cal, [ana, ben]);
    const calWs = await WsClient.connect(server, cal);
    let anaWs = await WsClient.connect(server, ana);
    let benWs = await WsClient.connect(server, ben);

    // Before: each hears the other.
    anaWs.send({ type: 'typing', groupId: group.id });
    await benWs.waitFor(groupTypingFrom(ana));

    // Ana blocks Ben, both online: the hub separates their connections at once.
    expect((await block(ana, ben)).status).toBe(200);
    await WsClient.settle(50);
    const check = async () => {
      const [anaAt, benAt, calAt] = [anaWs.frames.length, benWs.frames.length, calWs.frames.length];
      anaWs.send({ type: 'typing', groupId: group.id });
      benWs.send({ type: 'typing', groupId: group.id });
      // Cal, who blocked no one, hears both.
      await calWs.waitFor(groupTypingFrom(ana), calAt);
      await calWs.waitFor(groupTypingFrom(ben), calAt);
      await WsClient.settle(100);
      expect(benWs.frames.slice(benAt).filter(groupTypingFrom(ana))).toEqual([]);
      expect(anaWs.frames.slice(anaAt).filter(groupTypingFrom(ben))).toEqual([]);
    };
    await check();

    // New connections read the block at sign-in.
    anaWs.close();
    benWs.close();
    anaWs = await WsClient.connect(server, ana);
    benWs = await WsClient.connect(server, ben);
    await check();

    // Lifted: they hear each other again without reconnecting.
    await server.call('DELETE', `/api/users/blocks/${ben.id}`, undefined, ana.token);
    await WsClient.settle(50);
    const benAt = benWs.frames.length;
    anaWs.send({ type: 'typing', groupId: group.id });
    await benWs.waitFor(groupTypingFrom(ana), benAt);
    for (const ws of [anaWs, benWs, calWs]) ws.close();
  });

  it('a group made by someone else does not make two members who blocked each other contacts', async () => {
    const [dot, eve, fay] = await students('Dot', 'Eve', 'Fay');
    expect((await block(dot, eve)).status).toBe(200);
    const dotWs = await WsClient.connect(server, dot);
    const eveWs = await WsClient.connect(server, eve);
    const [dotAt, eveAt] = [dotWs.frames.length, eveWs.frames.length];

    // Fay's group has both: they stay members (and both hear Fay)...
    const group = await newGroup(fay, [dot, eve]);
    await dotWs.waitFor((f) => f.type === 'group_joined', dotAt);
    await eveWs.waitFor((f) => f.type === 'group_joined', eveAt);
    // ...but neither is told the other is online, and direct typing between them is still dropped.
    eveWs.send({ type: 'typing', roomId: dot.id });
    dotWs.send({ type: 'typing', roomId: eve.id });
    await WsClient.settle(150);
    expect(dotWs.frames.slice(dotAt).filter(onlineOf(eve))).toEqual([]);
    expect(eveWs.frames.slice(eveAt).filter(onlineOf(dot))).toEqual([]);
    expect(dotWs.frames.filter(typingFrom(eve))).toEqual([]);
    expect(eveWs.frames.filter(typingFrom(dot))).toEqual([]);
    // Nor do they hear each other come and go.
    const eve2 = await WsClient.connect(server, eve);
    expect(eve2.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [] });
    expect(group.members.map((m) => m.id).sort()).toEqual([dot.id, eve.id, fay.id].sort());
    for (const ws of [dotWs, eveWs, eve2]) ws.close();
  });

  it('a group is not made with someone its creator blocked or who blocked them, in the same words either way', async () => {
    const [gus, hana, ivo] = await students('Gus', 'Hana', 'Ivo');
    expect((await block(gus, hana)).status).toBe(200);
    const body = (members: TestUser[]) => ({ name: 'Lab', memberIds: members.map((m) => m.id) });
    // Hana, the blocked one, adding Gus, and Gus adding Hana: the same refusal.
    const byBlocked = await server.post('/api/groups', body([ivo, gus]), hana.token);
    const byBlocker = await server.post('/api/groups', body([hana]), gus.token);
    for (const res of [byBlocked, byBlocker]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: CHAT_SERVER_MSG.memberBlocked });
    }
    // Nothing was made: Ivo has no group.
    const ivoWs = await WsClient.connect(server, ivo);
    expect(ivoWs.of('group_joined')).toEqual([]);
    // Without them, it is made.
    expect((await server.post('/api/groups', body([ivo]), hana.token)).status).toBe(201);
    ivoWs.close();
  });
});

describe('a block committing while a connection signs in', () => {
  it('is applied once the sign-in has read its contacts: no presence or typing across it', async () => {
    const [jon, kim] = await students('Jon', 'Kim');
    const jonWs = await WsClient.connect(server, jon);
    const kimWs = await WsClient.connect(server, kim);
    expect(await dm(kimWs, jon)).toMatchObject({ type: 'ack' });
    expect(await dm(jonWs, kim)).toMatchObject({ type: 'ack' });

    // Kim signs in on another device; her contacts (Jon among them) are read, then Jon blocks her.
    const held = holdNextSignInRead();
    const signingIn = WsClient.connect(server, kim);
    await held.read;
    expect((await block(jon, kim)).status).toBe(200);
    await WsClient.settle(20);
    held.release();
    const kim2 = await signingIn;

    // Her new device does not list Jon online, and her typing from it does not reach him.
    expect(kim2.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [] });
    const jonAt = jonWs.frames.length;
    kim2.send({ type: 'typing', roomId: jon.id });
    await WsClient.settle(150);
    expect(jonWs.frames.slice(jonAt).filter(typingFrom(kim))).toEqual([]);
    // And Jon going away is not told to it.
    jonWs.close();
    await WsClient.settle(150);
    expect(kim2.frames.filter((f) => f.type === 'user_offline' && f.userId === jon.id)).toEqual([]);
    for (const ws of [kimWs, kim2]) ws.close();
  });

  it('and an unblock committing then is applied too: contacts again on that connection', async () => {
    const [lea, max] = await students('Lea', 'Max');
    const leaWs = await WsClient.connect(server, lea);
    const maxWs = await WsClient.connect(server, max);
    expect(await dm(maxWs, lea)).toMatchObject({ type: 'ack' });
    expect(await dm(leaWs, max)).toMatchObject({ type: 'ack' });
    expect((await block(lea, max)).status).toBe(200);

    const held = holdNextSignInRead();
    const signingIn = WsClient.connect(server, max);
    await held.read;
    await server.call('DELETE', `/api/users/blocks/${max.id}`, undefined, lea.token);
    await WsClient.settle(20);
    held.release();
    const max2 = await signingIn;

    expect(max2.of('online_users_list')[0]).toEqual({ type: 'online_users_list', userIds: [lea.id] });
    const leaAt = leaWs.frames.length;
    max2.send({ type: 'typing', roomId: lea.id });
    await leaWs.waitFor(typingFrom(max), leaAt);
    for (const ws of [leaWs, maxWs, max2]) ws.close();
  });
});
