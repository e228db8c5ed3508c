import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECTORY_PAGE_MAX, userDirectoryQuerySchema } from '@campus/protocol';
import { searchUsers } from '../src/modules/directory';
import { selectPlansOf } from './support/query-plans';
import { itOnSqlite, startTestServer, type TestServer } from './support/test-server';
import { addStudent, type Student } from './chat-rest-helpers';

let server: TestServer;
let me: Student;
let zoe: Student;
const COUNT = 120;

beforeAll(async () => {
  server = await startTestServer();
  me = await addStudent(server, 'Me', 'Myself');
  // Two students per name, so the order needs the id to be total.
  for (let i = 0; i < COUNT; i++) await addStudent(server, `Stu${String(i >> 1).padStart(3, '0')}`, 'Dent');
  zoe = await addStudent(server, 'Zoe', 'Quinn');
});
afterAll(() => server.close());

type Entry = { id: string; firstName: string };
const list = async (query: string) => {
  const res = await server.get(`/api/users${query}`, me.token);
  expect(res.status).toBe(200);
  return res.body as unknown as Entry[];
};

describe('the student directory gives out no e-mail addresses', () => {
  it('?limit=500 answers at most a page, with no e-mail anywhere', async () => {
    const res = await server.get('/api/users?limit=500', me.token);
    expect(res.status).toBe(200);
    const page = res.body as unknown as Record<string, unknown>[];
    expect(page).toHaveLength(DIRECTORY_PAGE_MAX);
    expect(JSON.stringify(page)).not.toContain('@');
    for (const entry of page)
      expect(Object.keys(entry).sort()).toEqual(['firstName', 'id', 'lastName', 'profilePictureUrl']);
  });

  it('finds nobody by part of an address', async () => {
    for (const part of ['@uni.edu', 'zoe.quinn', zoe.email.slice(0, -1), zoe.email.slice(1), 'uni.edu'])
      expect(await list(`?q=${encodeURIComponent(part)}`), part).toEqual([]);
  });

  it('finds a student by their whole address, in any case, still without the address', async () => {
    const res = await server.get(
      `/api/users?q=${encodeURIComponent(` ${zoe.email.toUpperCase()} `)}`,
      me.token,
    );
    expect(res.body).toEqual([{ id: zoe.id, firstName: 'Zoe', lastName: 'Quinn', profilePictureUrl: null }]);
  });

  it('still finds by part of a name', async () => {
    expect((await list('?q=oe%20qu')).map((u) => u.id)).toEqual([zoe.id]);
    expect(await list('?q=stu00')).toHaveLength(20);
  });

  it('a profile read carries no e-mail either', async () => {
    const res = await server.get(`/api/users/${zoe.id}`, me.token);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('email');
    expect(JSON.stringify(res.body)).not.toContain('@');
  });
});

describe('paging', () => {
  it('walks everyone once, in name order, page after page', async () => {
    const seen: Entry[] = [];
    let after = '';
    for (;;) {
      const page = await list(`?limit=${DIRECTORY_PAGE_MAX}${after && `&after=${after}`}`);
      seen.push(...page);
      if (page.length < DIRECTORY_PAGE_MAX) break;
      after = page.at(-1)!.id;
    }
    expect(seen).toHaveLength(COUNT + 1);
    expect(new Set(seen.map((u) => u.id)).size).toBe(COUNT + 1);
    expect(seen.some((u) => u.id === me.id)).toBe(false);
    const names = seen.map((u) => u.firstName.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(seen.at(-1)!.id).toBe(zoe.id);
  });

  it('pages a name search too', async () => {
    const first = await list('?q=dent&limit=7');
    const second = await list(`?q=dent&limit=7&after=${first.at(-1)!.id}`);
    expect(second).toHaveLength(7);
    expect(second.some((u) => first.some((f) => f.id === u.id))).toBe(false);
    expect(await list('?after=no-such-user')).toEqual([]);
  });

  // SQLite's planner, through its handle: PostgreSQL plans by table statistics (a sequential scan of a
  // table this small), so the plan is checked on SQLite only.
  itOnSqlite(
    'reads a page through users_directory_idx, seeking to the cursor, with no sort of all users',
    async () => {
      const query = userDirectoryQuerySchema.parse({ q: 'stu', after: zoe.id });
      const plans = await selectPlansOf(server.deps.sqlite, () => searchUsers(server.deps.db, me.id, query));
      const pagePlan = plans.at(-1)!;
      expect(pagePlan).toMatch(/SEARCH users USING (COVERING )?INDEX users_directory_idx/);
      expect(pagePlan).not.toMatch(/TEMP B-TREE/);
    },
  );
});
