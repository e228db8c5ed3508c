import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_SERVER_MSG } from '@campus/protocol';
import { GROUP_STRANGERS_RATE } from '../src/modules/groups';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { addStudent, type Student } from './chat-rest-helpers';

const clock = testClock();
let server: TestServer;
let mallory: Student;
let strangers: Student[];

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  mallory = await addStudent(server, 'Mallory', 'Mass');
  strangers = [];
  for (let i = 0; i < GROUP_STRANGERS_RATE.limit + 30; i++) {
    strangers.push(await addStudent(server, `Stranger${i}`, 'Student'));
  }
});
afterAll(async () => {
  await server.close();
});

const create = (memberIds: string[]) =>
  server.post('/api/groups', { name: 'Study', memberIds }, mallory.token);

describe('strangers added to groups', () => {
  it('draw on an hourly budget, so groups cannot reach the whole directory around the direct-message limits', async () => {
    const ids = strangers.map((s) => s.id);
    const limit = GROUP_STRANGERS_RATE.limit;
    // A full group of new people always fits in one request; one more group spends the budget exactly.
    const full = limit - 1;
    expect((await create(ids.slice(0, full))).status).toBe(201);
    expect((await create(ids.slice(full, limit))).status).toBe(201);

    // One more stranger is refused, and so is a group that mixes them with contacts; nothing is created.
    const refused = await create([ids[limit]!]);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(CHAT_SERVER_MSG.tooManyNewMembers);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await create([ids[0]!, ids[limit + 1]!])).status).toBe(429);
    // Ids of nobody are refused as unknown, not counted as new people.
    expect((await create([ids[0]!, randomUUID()])).status).toBe(400);
    const groups = await server.get('/api/conversations', mallory.token);
    expect((groups.body as unknown as unknown[]).length).toBe(2);

    // People already in a group with her are contacts: a new group of them costs nothing.
    expect((await create(ids.slice(0, 30))).status).toBe(201);

    // An hour later the budget is back.
    clock.advance(GROUP_STRANGERS_RATE.windowMs + 1);
    expect((await create(ids.slice(limit, limit + 30))).status).toBe(201);
  });
});
