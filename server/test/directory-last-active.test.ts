import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicProfileSchema } from '@campus/protocol';
import { sendDirectMessage } from '../src/modules/chat';
import { contactCheck } from '../src/modules/directory';
import { touchLastActive } from '../src/modules/users';
import { itOnSqlite, startTestServer, type TestServer } from './support/test-server';
import { addStudent, type Student } from './chat-rest-helpers';

let server: TestServer;
let victim: Student;
let stranger: Student;
let friend: Student;
let classmate: Student;

beforeAll(async () => {
  server = await startTestServer();
  victim = await addStudent(server, 'Vic', 'Tim');
  stranger = await addStudent(server, 'Stan', 'Ger');
  friend = await addStudent(server, 'Fran', 'End');
  classmate = await addStudent(server, 'Cass', 'Mate');
  await touchLastActive(server.deps.db, victim.id, server.deps.now() - 60_000);
  // A chat with one message makes the friend a contact; sharing a group, the classmate.
  await sendDirectMessage(server.deps, friend.id, { id: randomUUID(), to: victim.id, content: 'hi' });
  const group = await server.post('/api/groups', { name: 'Study', memberIds: [victim.id] }, classmate.token);
  expect(group.status).toBe(201);
});
afterAll(() => server.close());

const profileAs = async (viewer: Student, userId: string) => {
  const res = await server.get(`/api/users/${userId}`, viewer.token);
  expect(res.status).toBe(200);
  return publicProfileSchema.parse(res.body);
};

describe("a profile's last-active time goes to contacts only", () => {
  it('is null for a stranger, who still sees the name and profile', async () => {
    const seen = await profileAs(stranger, victim.id);
    expect(seen.firstName).toBe('Vic');
    expect(seen.lastActiveAt).toBeNull();
  });

  it('is given to someone who shares a chat with a message, or a group, and to the user themself', async () => {
    for (const viewer of [friend, classmate, victim])
      expect((await profileAs(viewer, victim.id)).lastActiveAt, viewer.ref.firstName).toMatch(/^\d{4}-/);
    // Both ways: the victim sees the friend's too.
    await touchLastActive(server.deps.db, friend.id, server.deps.now());
    expect((await profileAs(victim, friend.id)).lastActiveAt).not.toBeNull();
  });

  // SQLite's EXPLAIN QUERY PLAN: PostgreSQL plans by table statistics (a sequential scan of a table this
  // small), so the plan is checked on SQLite only.
  itOnSqlite('is checked with index lookups only, no table scan', async () => {
    const plan = await sql<{
      detail: string;
    }>`EXPLAIN QUERY PLAN ${contactCheck(stranger.id, victim.id)}`.execute(server.deps.db);
    const details = plan.rows.map((r) => r.detail);
    expect(details.join(' | ')).toMatch(/direct_conversations/);
    // 'SCAN CONSTANT ROW' is the one-row SELECT around the EXISTS; no table is scanned.
    for (const detail of details) expect(detail).not.toMatch(/^SCAN (?!CONSTANT ROW)/);
  });
});
