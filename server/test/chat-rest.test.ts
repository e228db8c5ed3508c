import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_SERVER_MSG,
  conversationItemSchema,
  directMessageSchema,
  publicProfileSchema,
  SERVER_MSG,
  type ConversationItem,
  type DirectMessage,
} from '@campus/protocol';
import { sendDirectMessage, sendGroupMessage } from '../src/modules/chat';
import { createGroup } from '../src/modules/groups';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { addStudent, type Student } from './chat-rest-helpers';
import { execSql } from './support/sql';

const clock = testClock();
let server: TestServer;
let alex: Student;
let priya: Student;
let sam: Student;

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  alex = await addStudent(server, 'Alex', 'Rivera');
  priya = await addStudent(server, 'Priya', 'Sharma');
  sam = await addStudent(server, 'Sam', 'Lee');
});
afterAll(async () => {
  await server.close();
});

function send(from: Student, to: Student, content: string): Promise<DirectMessage> {
  clock.advance(1000);
  return sendDirectMessage(server.deps, from.id, { id: randomUUID(), to: to.id, content });
}

describe('GET /api/users (directory)', () => {
  it('needs a signed-in user', async () => {
    const res = await server.get('/api/users');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(SERVER_MSG.unauthorized);
  });

  it('lists everyone but the caller, sorted by name', async () => {
    const res = await server.get('/api/users', alex.token);
    expect(res.status).toBe(200);
    const list = res.body as unknown as { id: string; firstName: string; email: string }[];
    expect(list.map((u) => u.firstName)).toEqual(['Priya', 'Sam']);
    expect(list.some((u) => u.id === alex.id)).toBe(false);
    // Names and avatars only (directory.test.ts covers e-mails and paging).
    expect(Object.keys(list[0]!).sort()).toEqual(['firstName', 'id', 'lastName', 'profilePictureUrl'].sort());
  });

  it('searches "first last" or a whole e-mail, case-insensitively, and honours limit', async () => {
    const byName = (await server.get('/api/users?q=PRIYA%20sh', alex.token)).body as unknown as {
      id: string;
    }[];
    expect(byName.map((u) => u.id)).toEqual([priya.id]);
    const byEmail = (
      await server.get(`/api/users?q=${encodeURIComponent(sam.email.toUpperCase())}`, alex.token)
    ).body as unknown as { id: string }[];
    expect(byEmail.map((u) => u.id)).toEqual([sam.id]);
    const wildcard = (await server.get('/api/users?q=%25', alex.token)).body as unknown as unknown[];
    expect(wildcard).toEqual([]);
    const self = (await server.get('/api/users?q=alex', alex.token)).body as unknown as unknown[];
    expect(self).toEqual([]);
    const limited = (await server.get('/api/users?limit=1', alex.token)).body as unknown as unknown[];
    expect(limited).toHaveLength(1);
    expect((await server.get('/api/users?limit=0', alex.token)).status).toBe(400);
  });

  it('GET /api/users/:id gives the public profile and 404 for an unknown id', async () => {
    const res = await server.get(`/api/users/${priya.id}`, alex.token);
    expect(res.status).toBe(200);
    const profile = publicProfileSchema.parse(res.body);
    expect(profile).toMatchObject({ id: priya.id, firstName: 'Priya', lastName: 'Sharma' });
    expect(res.body).not.toHaveProperty('email');
    expect(res.body).not.toHaveProperty('phoneNumber');
    expect(res.body).not.toHaveProperty('role');
    const missing = await server.get(`/api/users/${randomUUID()}`, alex.token);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(CHAT_SERVER_MSG.userNotFound);
    expect((await server.get('/api/users/..%2F..%2Fetc', alex.token)).status).toBe(404);
  });
});

describe('GET /api/conversations', () => {
  it('lists direct chats and groups newest first, with 30-character snippets and unread counts', async () => {
    const long = 'This is a rather long message that will be cut in the list';
    await send(alex, priya, 'hi Priya');
    await send(priya, alex, long);
    clock.advance(1000);
    const group = await createGroup(server.deps, sam.id, { name: 'Study buddies', memberIds: [alex.id] });
    clock.advance(1000);
    await sendGroupMessage(server.deps, sam.id, { id: randomUUID(), groupId: group.id, content: 'first' });
    await sendGroupMessage(server.deps, sam.id, { id: randomUUID(), groupId: group.id, content: 'second' });
    await send(alex, sam, 'hey Sam');

    const res = await server.get('/api/conversations', alex.token);
    expect(res.status).toBe(200);
    const items = (res.body as unknown as unknown[]).map((i) => conversationItemSchema.parse(i));
    expect(items.map((i) => i.name)).toEqual(['Sam Lee', 'Study buddies', 'Priya Sharma']);
    const [samChat, groupChat, priyaChat] = items as [ConversationItem, ConversationItem, ConversationItem];
    expect(samChat).toMatchObject({
      id: sam.id,
      isGroup: false,
      unreadCount: 0,
      lastMessageSnippet: 'hey Sam',
    });
    expect(groupChat).toMatchObject({
      id: group.id,
      isGroup: true,
      unreadCount: 2,
      lastMessageSnippet: 'second',
    });
    expect(priyaChat).toMatchObject({
      id: priya.id,
      unreadCount: 1,
      email: null,
      lastMessageSnippet: 'This is a rather long message ...',
    });
    expect(new Date(samChat.lastMessageTimestamp!).getTime()).toBeGreaterThan(
      new Date(priyaChat.lastMessageTimestamp!).getTime(),
    );

    // Priya's side: Alex's message is unread for her; her own reply is not.
    const hers = (await server.get('/api/conversations', priya.token)).body as unknown as ConversationItem[];
    expect(hers).toEqual([expect.objectContaining({ id: alex.id, unreadCount: 1, name: 'Alex Rivera' })]);
  });

  it('needs a signed-in user', async () => {
    expect((await server.get('/api/conversations')).status).toBe(401);
  });
});

describe('GET /api/chat/:partnerId', () => {
  it('pages newest first: page 1 is the newest 30, page 2 the rest, limit narrows', async () => {
    const a = await addStudent(server, 'Page', 'One');
    const b = await addStudent(server, 'Page', 'Two');
    const sent: DirectMessage[] = [];
    for (let i = 1; i <= 35; i += 1) sent.push(await send(i % 2 ? a : b, i % 2 ? b : a, `message ${i}`));
    await execSql(
      server,
      'INSERT INTO message_reactions (message_id, user_id, emoji) VALUES (?, ?, ?)',
      sent[34]!.id,
      b.id,
      '🔥',
    );

    const page1 = await server.get(`/api/chat/${b.id}?page=1&limit=30`, a.token);
    expect(page1.status).toBe(200);
    const first = (page1.body as unknown as unknown[]).map((m) => directMessageSchema.parse(m));
    expect(first).toHaveLength(30);
    expect(first[0]!.content).toBe('message 35');
    expect(first[29]!.content).toBe('message 6');
    expect(first[0]!.reactions).toEqual([{ emoji: '🔥', userId: b.id }]);
    expect(first[0]!.from).toEqual(a.ref);
    expect(first[0]!.to).toEqual(b.ref);

    const page2 = (await server.get(`/api/chat/${b.id}?page=2&limit=30`, a.token))
      .body as unknown as DirectMessage[];
    expect(page2.map((m) => m.content)).toEqual([
      'message 5',
      'message 4',
      'message 3',
      'message 2',
      'message 1',
    ]);
    const page3 = (await server.get(`/api/chat/${b.id}?page=3`, a.token)).body as unknown as DirectMessage[];
    expect(page3).toEqual([]);

    // The same history from the other side; a default page is 30.
    const theirs = (await server.get(`/api/chat/${a.id}`, b.token)).body as unknown as DirectMessage[];
    expect(theirs.map((m) => m.id)).toEqual(first.map((m) => m.id));
    const five = (await server.get(`/api/chat/${a.id}?limit=5`, b.token)).body as unknown as DirectMessage[];
    expect(five.map((m) => m.content)).toEqual(first.slice(0, 5).map((m) => m.content));

    // Nobody else reads it through their own "pair".
    const outsider = (await server.get(`/api/chat/${b.id}`, sam.token)).body as unknown as DirectMessage[];
    expect(outsider).toEqual([]);
  });

  it('refuses a bad page or limit', async () => {
    expect((await server.get(`/api/chat/${priya.id}?page=0`, alex.token)).status).toBe(400);
    expect((await server.get(`/api/chat/${priya.id}?limit=1000`, alex.token)).status).toBe(400);
    expect((await server.get(`/api/chat/${priya.id}`)).status).toBe(401);
  });
});
