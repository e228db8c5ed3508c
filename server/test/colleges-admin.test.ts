import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLEGE_ADMIN_MSG, SERVER_MSG, collegeListSchema, type ManualCollegeItem } from '@campus/protocol';
import { COLLEGE_DECISION_RATE } from '../src/modules/colleges/admin-routes';
import { getFile, startCollegesServer } from './colleges-helpers';
import { manualList as manualListOf, meOf, saveCollege as saveCollegeOf } from './colleges-admin-helpers';
import { createUser, type TestUser } from './support/ws-client';
import { createAccount } from './verification-helpers';

let ctx: Awaited<ReturnType<typeof startCollegesServer>>;
let admin: TestUser;
const pause = () => new Promise((r) => setTimeout(r, 5));

beforeAll(async () => {
  ctx = await startCollegesServer();
  admin = await createAccount(ctx.server, 'Ada', 'admin');
});
afterAll(() => ctx.close());

const saveCollege = (token: string, college: unknown) => saveCollegeOf(ctx.server, token, college);
const manualList = (query = '') => manualListOf(ctx.server, admin.token, query);
const me = (user: TestUser) => meOf(ctx.server, user);

describe('the admins’ college routes', () => {
  it('answer 401 without a session and 403 to students, before reading anything', async () => {
    const student = await createUser(ctx.server, 'Sam');
    const paths = [
      ['GET', '/api/admin/colleges/manual'],
      ['POST', '/api/admin/colleges/col_x/approve'],
      ['POST', '/api/admin/colleges/col_x/merge'],
    ] as const;
    for (const [method, path] of paths) {
      const body = method === 'POST' ? {} : undefined;
      expect((await ctx.server.call(method, path, body)).status).toBe(401);
      const res = await ctx.server.call(method, path, body, student.token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: SERVER_MSG.forbidden });
    }
  });
});

describe('GET /api/admin/colleges/manual', () => {
  it('lists manual colleges oldest first with how many profiles use each, in keyset pages', async () => {
    const [ann, bob, cat] = await Promise.all(['Ann', 'Bob', 'Cat'].map((n) => createUser(ctx.server, n)));
    const sunrise = await saveCollege(ann!.token, 'Sunrise College of Arts');
    await pause();
    await saveCollege(bob!.token, 'sunrise  college of ARTS');
    await pause();
    const lake = await saveCollege(cat!.token, { id: 'Lakeside Poly', name: 'Lakeside Poly', country: 'US' });

    const all = await manualList();
    const mine = all.colleges.filter((c) => c.id === sunrise.id || c.id === lake.id);
    expect(mine).toEqual<ManualCollegeItem[]>([
      {
        id: sunrise.id,
        name: 'Sunrise College of Arts',
        country: 'IN',
        stateCode: null,
        stateName: null,
        city: null,
        createdAt: expect.any(String) as string,
        students: 2,
      },
      expect.objectContaining({ id: lake.id, country: 'US', students: 1 }) as ManualCollegeItem,
    ]);
    expect(all.total).toBe(all.colleges.length);
    const order = all.colleges.map((c) => `${c.createdAt}|${c.id}`);
    expect(order).toEqual([...order].sort());

    // One at a time: each page's `next` continues after its last college, until there is none.
    const paged: string[] = [];
    let after: string | null = null;
    do {
      const page = await manualList(`?limit=1${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      expect(page.colleges.length).toBeLessThanOrEqual(1);
      paged.push(...page.colleges.map((c) => c.id));
      after = page.next;
    } while (after);
    expect(paged).toEqual(all.colleges.map((c) => c.id));
  });

  it('refuses a bad page size or cursor with 400', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=x', '?after=nonsense', '?after=2026|not-an-id'])
      expect((await ctx.server.get(`/api/admin/colleges/manual${query}`, admin.token)).status).toBe(400);
  });
});

describe('POST /api/admin/colleges/{id}/approve', () => {
  it("lists the college in its Indian state's file with a new ETag, and gives its students the place", async () => {
    const ann = await createUser(ctx.server, 'Ann');
    const college = await saveCollege(ann.token, 'Deccan Institute of Design');
    const before = await getFile(`${ctx.server.url}/colleges/IN-MH.json`);
    expect(before.text).not.toContain('Deccan Institute of Design');

    const res = await ctx.server.post(
      `/api/admin/colleges/${college.id}/approve`,
      { stateCode: 'MH', city: '  Pune ' },
      admin.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.college).toMatchObject({ id: college.id, stateCode: 'MH', city: 'Pune', students: 1 });

    const after = await getFile(`${ctx.server.url}/colleges/IN-MH.json`);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const listed = collegeListSchema.parse(after.json).find((c) => c.id === college.id);
    expect(listed).toEqual({
      id: college.id,
      name: 'Deccan Institute of Design',
      country: 'IN',
      city: 'Pune',
      stateName: 'Maharashtra',
    });
    // A cached copy revalidates to the new list, not a 304.
    const again = await getFile(`${ctx.server.url}/colleges/IN-MH.json`, {
      'if-none-match': before.headers.get('etag')!,
    });
    expect(again.status).toBe(200);
    expect((await manualList()).colleges.map((c) => c.id)).not.toContain(college.id);
    expect((await me(ann)).college).toEqual({
      id: college.id,
      name: 'Deccan Institute of Design',
      country: 'IN',
      city: 'Pune',
      stateName: 'Maharashtra',
    });
    const row = await ctx.server.deps.db
      .selectFrom('colleges')
      .select(['source', 'status'])
      .where('id', '=', college.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ source: 'manual', status: 'listed' });

    // Approved once: a second approval (or a merge of it) finds it no longer waiting.
    const twice = await ctx.server.post(`/api/admin/colleges/${college.id}/approve`, {}, admin.token);
    expect(twice).toMatchObject({ status: 409, body: { error: COLLEGE_ADMIN_MSG.notManual } });
  });

  it('lists a college of another country in its country file', async () => {
    const ann = await createUser(ctx.server, 'Ann');
    const college = await saveCollege(ann.token, { id: 'Prairie Tech', name: 'Prairie Tech', country: 'CA' });
    const before = await getFile(`${ctx.server.url}/colleges/CA.json`);
    const res = await ctx.server.post(`/api/admin/colleges/${college.id}/approve`, {}, admin.token);
    expect(res.status).toBe(200);
    const after = await getFile(`${ctx.server.url}/colleges/CA.json`);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect((after.json as { id: string }[]).map((c) => c.id)).toContain(college.id);
  });

  it('refuses a state outside India, an unknown state, unknown and malformed ids, and a twin of a listed college', async () => {
    const ann = await createUser(ctx.server, 'Ann');
    const us = await saveCollege(ann.token, { id: 'Mesa Arts', name: 'Mesa Arts', country: 'US' });
    const approve = (id: string, body: object) =>
      ctx.server.post(`/api/admin/colleges/${id}/approve`, body, admin.token);
    expect(await approve(us.id, { stateCode: 'MH' })).toMatchObject({
      status: 400,
      body: { error: COLLEGE_ADMIN_MSG.stateOnlyForIndia },
    });
    expect(await approve(us.id, { stateCode: 'ZZ' })).toMatchObject({
      status: 400,
      body: { error: COLLEGE_ADMIN_MSG.unknownState },
    });
    expect(await approve(us.id, { city: 'x'.repeat(101) })).toMatchObject({ status: 400 });
    expect(await approve('col_unknown', {})).toMatchObject({
      status: 404,
      body: { error: COLLEGE_ADMIN_MSG.notFound },
    });
    expect(await approve('not-a-college', {})).toMatchObject({
      status: 400,
      body: { error: COLLEGE_ADMIN_MSG.invalidId },
    });

    // Typed without a state, it is a manual college beside the listed IIT Bombay of Maharashtra.
    const iitb = await saveCollege(ann.token, 'Indian Institute of Technology Bombay');
    expect(await approve(iitb.id, { stateCode: 'MH' })).toMatchObject({
      status: 409,
      body: { error: COLLEGE_ADMIN_MSG.duplicate },
    });
    expect((await manualList()).colleges.map((c) => c.id)).toContain(iitb.id);
  });

  it('is rate-limited per admin', async () => {
    const busy = await createAccount(ctx.server, 'Bea', 'admin');
    for (let i = 0; i < COLLEGE_DECISION_RATE.limit; i++)
      expect((await ctx.server.post('/api/admin/colleges/col_nope/approve', {}, busy.token)).status).toBe(
        404,
      );
    expect((await ctx.server.post('/api/admin/colleges/col_nope/merge', {}, busy.token)).status).toBe(429);
    // Another admin is not held back by it.
    expect((await ctx.server.post('/api/admin/colleges/col_nope/approve', {}, admin.token)).status).toBe(404);
  });
});
