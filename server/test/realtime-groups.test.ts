import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_ERRORS } from '@campus/protocol';
import { createGroup } from '../src/modules/groups/service';
import { rowOf } from './support/sql';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

let server: TestServer;
let members: TestUser[];
let outsider: TestUser;
let groupId: string;
const open: WsClient[] = [];

async function connect(user: TestUser) {
  const client = await WsClient.connect(server, user);
  open.push(client);
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
  members = [];
  for (const name of ['Ann', 'Bob', 'Cid', 'Dee']) members.push(await createUser(server, name));
  outsider = await createUser(server, 'Eve');
  groupId = (
    await createGroup(server.deps, members[0]!.id, {
      name: 'Study group',
      memberIds: members.slice(1).map((m) => m.id),
    })
  ).id;
});
afterAll(async () => {
  for (const c of open) c.close();
  await server.close();
});

describe('group chat over /ws', () => {
  it('fans a group message out to every member and nobody else', async () => {
    const clients = await Promise.all(members.map(connect));
    const eve = await connect(outsider);
    const id = randomUUID();
    const mid = clients[1]!.mutate({ type: 'send_group_message', id, groupId, content: 'Hi all' });
    await clients[1]!.waitFor((f) => f.type === 'ack' && f.mid === mid);
    for (const client of clients) {
      const got = await client.waitFor((f) => f.type === 'receive_group_message');
      expect(got.message).toMatchObject({
        id,
        group: groupId,
        content: 'Hi all',
        from: { id: members[1]!.id },
      });
    }
    await WsClient.settle();
    expect(eve.of('receive_group_message')).toHaveLength(0);
  });

  it('group typing reaches the other members only', async () => {
    const [a, b] = await Promise.all(members.slice(0, 2).map(connect));
    const eve = await connect(outsider);
    a!.send({ type: 'typing', groupId });
    expect(await b!.waitFor((f) => f.type === 'group_member_typing')).toEqual({
      type: 'group_member_typing',
      fromUserId: members[0]!.id,
      groupId,
    });
    await WsClient.settle();
    expect(a!.of('group_member_typing')).toHaveLength(0);
    expect(eve.of('group_member_typing')).toHaveLength(0);
  });

  it('refuses a non-member on send, join and typing with context group', async () => {
    const eve = await connect(outsider);
    const b = await connect(members[1]!);
    const mid = eve.mutate({ type: 'send_group_message', id: randomUUID(), groupId, content: 'let me in' });
    const refusal = {
      type: 'message_error',
      code: 'notGroupMember',
      error: REALTIME_ERRORS.notGroupMember,
      context: 'group',
      groupId,
    };
    expect(await eve.waitFor((f) => f.type === 'message_error' && f.mid === mid)).toMatchObject(refusal);
    eve.send({ type: 'join_group', groupId });
    eve.send({ type: 'typing', groupId });
    await eve.waitFor((_f) => eve.of('message_error').length === 3);
    expect(eve.of('message_error')).toEqual([{ ...refusal, deviceId: eve.deviceId, mid }, refusal, refusal]);
    await WsClient.settle();
    expect(b.of('receive_group_message').some((f) => JSON.stringify(f).includes('let me in'))).toBe(false);
    expect(b.of('group_member_typing').some((f) => f.fromUserId === outsider.id)).toBe(false);
  });

  it('join_group marks the group read for that member', async () => {
    const c = await connect(members[2]!);
    c.send({ type: 'join_group', groupId });
    c.send({ type: 'ping', t: 1 });
    await c.waitFor((f) => f.type === 'pong');
    expect(c.of('message_error')).toEqual([]);
    // Aliases in snake_case: PostgreSQL folds unquoted ones to lower case.
    const marks = async () =>
      (await rowOf<{ read_seq: number; last_seq: number }>(
        server,
        // The group's activity: its newest message's seq, else its creation's.
        `SELECT m.read_seq, coalesce((SELECT max(seq) FROM group_messages WHERE group_id = g.id), g.created_seq)
           AS last_seq FROM group_members m JOIN groups g ON g.id = m.group_id WHERE m.group_id = ? AND m.user_id = ?`,
        groupId,
        members[2]!.id,
      ))!;
    // The mark is written after the pong on PostgreSQL (its commit awaits the pool): soon, then.
    await expect.poll(async () => (await marks()).read_seq).toBeGreaterThan(0);
    const row = await marks();
    expect(row.read_seq).toBe(row.last_seq);
    expect(row.last_seq).toBeGreaterThan(0);
  });

  it("a member's other devices hear group_read when the read mark moves, and only then", async () => {
    const [phone, laptop] = [await connect(members[3]!), await connect(members[3]!)];
    const sender = await connect(members[0]!);
    const mid = sender.mutate({ type: 'send_group_message', id: randomUUID(), groupId, content: 'read me' });
    await sender.waitFor((f) => f.type === 'ack' && f.mid === mid);
    await laptop.waitFor((f) => f.type === 'receive_group_message' && JSON.stringify(f).includes('read me'));

    phone.send({ type: 'join_group', groupId });
    const read = await laptop.waitFor((f) => f.type === 'group_read');
    const lastSeq = (await rowOf<{ last_seq: number }>(
      server,
      'SELECT max(seq) AS last_seq FROM group_messages WHERE group_id = ?',
      groupId,
    ))!.last_seq;
    expect(read).toMatchObject({ type: 'group_read', groupId, readSeq: lastSeq });
    await phone.waitFor((f) => f.type === 'group_read');

    // Nothing new since: opening the group again writes nothing and tells nobody.
    phone.send({ type: 'join_group', groupId });
    phone.send({ type: 'ping', t: 2 });
    await phone.waitFor((f) => f.type === 'pong');
    await WsClient.settle();
    expect(laptop.of('group_read')).toHaveLength(1);
    expect(sender.of('group_read')).toHaveLength(0);
  });

  it('a group created before a member has pulled goes live for that connection once its pull carries it', async () => {
    const [ann, bob] = [await createUser(server, 'Gia'), await createUser(server, 'Hal')];
    const annWs = await connect(ann);
    // Bob is signed in but has not pulled: the group_joined change reaches the connection before its pull.
    const bobWs = await WsClient.connect(server, bob, { pull: false });
    open.push(bobWs);
    const cursor = server.engine.transactor.currentSeq();
    const group = await createGroup(server.deps, ann.id, { name: 'Before the pull', memberIds: [bob.id] });
    const page = await bobWs.pull(cursor);
    expect(page.type).toBe('changes');
    expect(JSON.stringify(page.changes)).toContain(group.id);
    const id = randomUUID();
    const mid = annWs.mutate({ type: 'send_group_message', id, groupId: group.id, content: 'live?' });
    await annWs.waitFor((f) => f.type === 'ack' && f.mid === mid);
    expect(await bobWs.waitFor((f) => f.type === 'receive_group_message')).toMatchObject({
      message: { id, group: group.id },
    });
  });
});
