import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, REALTIME_ERRORS } from '@campus/protocol';
import { rowOf, rowsOf } from './support/sql';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;
let cid: TestUser;
const open: WsClient[] = [];

async function connect(user: TestUser) {
  const client = await WsClient.connect(server, user);
  open.push(client);
  return client;
}

const messageOf = (f: Frame) => f.message as { id: string; status: string; replyTo: string | null };

beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'Ann');
  bob = await createUser(server, 'Bob');
  cid = await createUser(server, 'Cid');
});
afterAll(async () => {
  for (const c of open) c.close();
  await server.close();
});

describe('direct chat over /ws', () => {
  it('sends, delivers and reads: sent → delivered → read reach the sender', async () => {
    const a = await connect(ann);
    const b = await connect(bob);
    const id = randomUUID();
    const mid = a.mutate({ type: 'send_message', id, to: bob.id, content: 'Hello Bob' });

    const own = await a.waitFor((f) => f.type === 'receive_message' && messageOf(f).id === id);
    const ack = await a.waitFor((f) => f.type === 'ack' && f.mid === mid);
    expect(a.frames.indexOf(own)).toBeLessThan(a.frames.indexOf(ack));
    expect(messageOf(own).status).toBe('sent');
    const got = await b.waitFor((f) => f.type === 'receive_message' && messageOf(f).id === id);
    expect(got.message).toMatchObject({ content: 'Hello Bob', from: { id: ann.id }, to: { id: bob.id } });

    const delivered = await a.waitFor((f) => f.type === 'peer_read_messages' && f.status === 'delivered');
    expect(delivered).toMatchObject({
      readerId: bob.id,
      messageIds: [id],
      chatPartnerId: ann.id,
      groupId: null,
    });

    b.mutate({ type: 'mark_messages_as_read', messageIds: [id], chatPartnerId: ann.id });
    const read = await a.waitFor((f) => f.type === 'peer_read_messages' && f.status === 'read');
    expect(read).toMatchObject({ readerId: bob.id, messageIds: [id], chatPartnerId: ann.id });
    const res = await server.get(`/api/chat/${ann.id}?page=1&limit=30`, bob.token);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('"status":"read"');
  });

  it('typing reaches only the partner', async () => {
    const a = await connect(ann);
    const b = await connect(bob);
    const c = await connect(cid);
    a.send({ type: 'typing', roomId: bob.id });
    expect(await b.waitFor((f) => f.type === 'peer_typing')).toEqual({
      type: 'peer_typing',
      fromUserId: ann.id,
    });
    a.send({ type: 'stop_typing', roomId: bob.id });
    await b.waitFor((f) => f.type === 'peer_stop_typing');
    await WsClient.settle();
    expect(c.of('peer_typing')).toHaveLength(0);
    expect(a.of('peer_typing')).toHaveLength(0);
  });

  it('reactions: a second emoji replaces the first, empty takes it back; replies are stored', async () => {
    const a = await connect(ann);
    const b = await connect(bob);
    const id = randomUUID();
    a.mutate({ type: 'send_message', id, to: bob.id, content: 'react to me' });
    await b.waitFor((f) => f.type === 'receive_message' && messageOf(f).id === id);

    const m1 = b.mutate({ type: 'chat-reaction', messageId: id, emoji: '👍', toUserId: ann.id });
    await b.waitFor((f) => f.type === 'ack' && f.mid === m1);
    const m2 = b.mutate({ type: 'chat-reaction', messageId: id, emoji: '🔥', toUserId: ann.id });
    await b.waitFor((f) => f.type === 'ack' && f.mid === m2);
    const reaction = await a.waitFor((f) => f.type === 'chat-reaction' && f.emoji === '🔥');
    expect(reaction).toMatchObject({ messageId: id, fromUserId: bob.id, toUserId: ann.id });
    const rows = await rowsOf(server, 'SELECT emoji FROM message_reactions WHERE message_id = ?', id);
    expect(rows).toEqual([{ emoji: '🔥' }]);

    const m3 = b.mutate({ type: 'chat-reaction', messageId: id, emoji: '', toUserId: ann.id });
    await b.waitFor((f) => f.type === 'ack' && f.mid === m3);
    await a.waitFor((f) => f.type === 'chat-reaction' && f.emoji === '');
    expect(await rowsOf(server, 'SELECT * FROM message_reactions WHERE message_id = ?', id)).toEqual([]);

    // Cid is not in that chat: refused.
    const c = await connect(cid);
    const m4 = c.mutate({ type: 'chat-reaction', messageId: id, emoji: '😂', toUserId: ann.id });
    const refused = await c.waitFor((f) => f.type === 'message_error' && f.mid === m4);
    expect(refused).toMatchObject({ error: REALTIME_ERRORS.unknownMessage, context: 'chat-reaction' });

    const replyId = randomUUID();
    b.mutate({ type: 'send_message', id: replyId, to: ann.id, content: 'a reply', replyTo: id });
    const reply = await a.waitFor((f) => f.type === 'receive_message' && messageOf(f).id === replyId);
    expect(messageOf(reply).replyTo).toBe(id);
    const badReply = randomUUID();
    const m5 = c.mutate({ type: 'send_message', id: badReply, to: ann.id, content: 'x', replyTo: id });
    expect(await c.waitFor((f) => f.type === 'message_error' && f.mid === m5)).toMatchObject({
      error: REALTIME_ERRORS.unknownMessage,
    });
  });

  it('a duplicated (deviceId, mid) is stored once and acknowledged again', async () => {
    const a = await connect(ann);
    const id = randomUUID();
    const frame = { type: 'send_message', id, to: bob.id, content: 'once' };
    const mid = a.mutate(frame);
    a.mutate({ ...frame, id: randomUUID() }, mid);
    a.mutate(frame, mid);
    await WsClient.settle(200);
    expect(a.of('ack').filter((f) => f.mid === mid)).toHaveLength(3);
    const count = await rowOf(server, 'SELECT count(*) AS n FROM direct_messages WHERE content = ?', 'once');
    expect(count).toEqual({ n: 1 });
  });

  it('bad frames answer message_error and change nothing', async () => {
    const a = await connect(ann);
    const before = server.deps.realtime;
    const seqBefore = await rowOf(server, 'SELECT count(*) AS n FROM change_log');
    a.sendRaw('{not json');
    a.send({ type: 'no_such_event' });
    a.send({ type: 'send_message', to: bob.id });
    const mid = a.mutate({ type: 'send_message', id: randomUUID(), to: bob.id, content: 'x'.repeat(5000) });
    a.mutate({ type: 'send_message', id: randomUUID(), to: bob.id, content: '   ' });
    a.send({ type: 'typing' });
    await a.waitFor((_f) => a.of('message_error').length === 6);
    const errors = a.of('message_error');
    // Mutations are answered after their (group) commit, so they may come after the other refusals.
    expect(errors.map((e) => [e.error, e.context])).toEqual([
      [REALTIME_ERRORS.badFrame, 'unknown'],
      [REALTIME_ERRORS.badFrame, 'no_such_event'],
      [REALTIME_ERRORS.badFrame, 'send_message'],
      [REALTIME_ERRORS.messageTooLong, 'send_message'],
      [REALTIME_ERRORS.badFrame, 'typing'],
      [REALTIME_ERRORS.emptyMessage, 'send_message'],
    ]);
    expect(errors[3]).toMatchObject({ deviceId: a.deviceId, mid });
    expect(errors[5]).toMatchObject({ deviceId: a.deviceId, mid: mid + 1 });
    expect(await rowOf(server, 'SELECT count(*) AS n FROM change_log')).toEqual(seqBefore);
    expect(server.deps.realtime).toBe(before);
    // The connection still works.
    a.send({ type: 'ping', t: 7 });
    expect(await a.waitFor((f) => f.type === 'pong')).toEqual({ type: 'pong', t: 7 });
  });

  it('no hello or a bad token closes with 4401; a wrong version with 4426', async () => {
    const silent = await WsClient.open(server);
    silent.send({ type: 'pull', cursor: 0 });
    expect(await silent.waitClose()).toBe(4401);
    const badToken = await WsClient.open(server);
    badToken.send({ type: 'hello', v: PROTOCOL_VERSION, token: 'x'.repeat(40) });
    expect(await badToken.waitClose()).toBe(4401);
    const old = await WsClient.open(server);
    old.send({ type: 'hello', v: PROTOCOL_VERSION - 1, token: ann.token });
    expect(await old.waitClose()).toBe(4426);
    expect(old.of('message_error')[0]).toMatchObject({ error: REALTIME_ERRORS.protocolVersion });
  });
});
