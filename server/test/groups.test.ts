import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_MSG,
  CHAT_SERVER_MSG,
  REALTIME_ERRORS,
  groupMessageSchema,
  groupSchema,
  type Group,
  type GroupMessage,
} from '@campus/protocol';
import { sendGroupMessage } from '../src/modules/chat';
import { GROUP_CREATE_RATE } from '../src/modules/groups';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { addStudent, type Student } from './chat-rest-helpers';
import { rowOf, rowsOf } from './support/sql';

const clock = testClock();
let server: TestServer;
let alex: Student;
let priya: Student;
let sam: Student;
let outsider: Student;

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  alex = await addStudent(server, 'Alex', 'Rivera');
  priya = await addStudent(server, 'Priya', 'Sharma');
  sam = await addStudent(server, 'Sam', 'Lee');
  outsider = await addStudent(server, 'Olly', 'Outsider');
});
afterAll(async () => {
  await server.close();
});

const create = (token: string, body: unknown) => server.post('/api/groups', body, token);

describe('POST /api/groups', () => {
  it('answers the spec wording for a blank name or no members, and ours for the rest', async () => {
    const cases: [unknown, string][] = [
      [{ name: '   ', memberIds: [priya.id] }, CHAT_MSG.groupNameRequired],
      [{ memberIds: [priya.id] }, CHAT_MSG.groupNameRequired],
      [{ name: 'Study', memberIds: [] }, CHAT_MSG.groupMembersRequired],
      [{ name: 'Study' }, CHAT_MSG.groupMembersRequired],
      [{ name: 'Study', memberIds: [alex.id] }, CHAT_MSG.groupMembersRequired],
      [{ name: 'x'.repeat(61), memberIds: [priya.id] }, CHAT_SERVER_MSG.groupNameTooLong],
      [{ name: 'Study', memberIds: [priya.id, randomUUID()] }, CHAT_SERVER_MSG.memberUnknown],
      [
        { name: 'Study', memberIds: Array.from({ length: 101 }, () => randomUUID()) },
        CHAT_SERVER_MSG.tooManyMembers,
      ],
    ];
    for (const [body, error] of cases) {
      const res = await create(alex.token, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toBe(error);
    }
    expect((await create('', { name: 'x', memberIds: [priya.id] })).status).toBe(401);
    const groups = (await rowOf<{ n: number }>(server, 'SELECT count(*) AS n FROM groups'))?.n;
    expect(groups).toBe(0);
  });

  it('creates the group with the creator, ignores duplicates and logs group_joined for every member', async () => {
    const res = await create(alex.token, {
      name: '  Study buddies ',
      memberIds: [priya.id, sam.id, priya.id],
    });
    expect(res.status).toBe(201);
    const group = groupSchema.parse(res.body);
    expect(group.name).toBe('Study buddies');
    expect(group.createdBy).toBe(alex.id);
    expect(group.members.map((m) => m.id)).toEqual([alex.id, priya.id, sam.id]);

    const audiences = (
      await rowsOf<{ audience: string }>(
        server,
        `SELECT a.audience FROM change_audience a JOIN change_log l ON l.seq = a.seq
          WHERE l.type = 'group_joined'`,
      )
    )
      .map((row) => row.audience)
      .sort();
    expect(audiences).toEqual([`u:${alex.id}`, `u:${priya.id}`, `u:${sam.id}`].sort());

    // Every member reads it; it shows in their conversations.
    const asSam = await server.get(`/api/groups/${group.id}`, sam.token);
    expect(asSam.status).toBe(200);
    expect(asSam.body).toEqual(res.body);
    const conversations = (await server.get('/api/conversations', priya.token)).body as unknown as {
      id: string;
    }[];
    expect(conversations.map((c) => c.id)).toContain(group.id);
  });
});

describe('group reads are for members only', () => {
  let group: Group;
  beforeAll(async () => {
    group = groupSchema.parse((await create(priya.token, { name: 'Reading', memberIds: [alex.id] })).body);
  });

  it('refuses a non-member with 403 and an unknown group with 404', async () => {
    for (const path of [`/api/groups/${group.id}`, `/api/groups/${group.id}/messages`]) {
      const res = await server.get(path, outsider.token);
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe(REALTIME_ERRORS.notGroupMember);
    }
    const unknown = await server.get(`/api/groups/${randomUUID()}`, alex.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(CHAT_SERVER_MSG.groupNotFound);
    expect((await server.get(`/api/groups/${group.id}`)).status).toBe(401);
  });

  it('pages group messages newest first', async () => {
    for (let i = 1; i <= 33; i += 1) {
      clock.advance(1000);
      await sendGroupMessage(server.deps, i % 2 ? alex.id : priya.id, {
        id: randomUUID(),
        groupId: group.id,
        content: `note ${i}`,
      });
    }
    const page1 = await server.get(`/api/groups/${group.id}/messages?page=1&limit=30`, alex.token);
    expect(page1.status).toBe(200);
    const first = (page1.body as unknown as unknown[]).map((m) => groupMessageSchema.parse(m));
    expect(first).toHaveLength(30);
    expect(first[0]).toMatchObject({ content: 'note 33', group: group.id, from: alex.ref });
    expect(first[1]!.from).toEqual(priya.ref);
    const page2 = (await server.get(`/api/groups/${group.id}/messages?page=2&limit=30`, priya.token))
      .body as unknown as GroupMessage[];
    expect(page2.map((m) => m.content)).toEqual(['note 3', 'note 2', 'note 1']);
    expect((await server.get(`/api/groups/${group.id}/messages?limit=abc`, alex.token)).status).toBe(400);
  });
});

it('limits how many groups one student creates', async () => {
  const student = await addStudent(server, 'Busy', 'Creator');
  const statuses: number[] = [];
  for (let i = 0; i <= GROUP_CREATE_RATE.limit; i += 1) {
    statuses.push((await create(student.token, { name: `G${i}`, memberIds: [alex.id] })).status);
  }
  expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
  expect(statuses.at(-1)).toBe(429);
});
