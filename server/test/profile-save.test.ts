import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLEGE_MSG, PROFILE_MSG, SERVER_MSG, type CollegeOption, type User } from '@campus/protocol';
import { listManualColleges } from '../src/modules/colleges';
import { PROFILE_SAVE_RATE, MANUAL_COLLEGE_RATE } from '../src/modules/profile';
import { addStudent, type Student } from './chat-rest-helpers';
import { getFile, startCollegesServer } from './colleges-helpers';

let ctx: Awaited<ReturnType<typeof startCollegesServer>>;
let me: Student;
let other: Student;
let mit: CollegeOption;

const put = (body: unknown, token = me.token) => ctx.server.call('PUT', '/api/users/profile', body, token);
const meNow = async (token = me.token) =>
  (await ctx.server.get('/api/auth/me', token)).body as unknown as User;

beforeAll(async () => {
  ctx = await startCollegesServer();
  // Not yet verified: saving the profile is open to every account under the access policy.
  me = await addStudent(ctx.server, 'Asha', 'Rao', 'pending_submission');
  other = await addStudent(ctx.server, 'Ben', 'Other');
  const list = (await getFile(`${ctx.server.url}/colleges/US.json`)).json as CollegeOption[];
  mit = list.find((c) => c.name === 'Massachusetts Institute of Technology')!;
  expect(mit).toBeDefined();
});
afterAll(() => ctx.close());

describe('PUT /api/users/profile', () => {
  it('needs a signed-in user', async () => {
    const res = await put({ course: 'CS' }, '');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: SERVER_MSG.unauthorized });
  });

  it('saves course, bio and year and answers the user as /api/auth/me does', async () => {
    const res = await put({ course: '  Computer Science ', bio: 'Hello there', year: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ course: 'Computer Science', bio: 'Hello there', year: 3 });
    expect(res.body).toEqual(await meNow());
  });

  it('leaves omitted fields unchanged and ignores fields it does not edit', async () => {
    const res = await put({
      bio: 'Changed',
      role: 'admin',
      email: 'evil@x.edu',
      firstName: 'Mallory',
      documentStatus: 'verified',
      profilePictureUrl: 'https://evil.example/x.png',
    });
    expect(res.status).toBe(200);
    const user = res.body as unknown as User;
    expect(user).toMatchObject({ course: 'Computer Science', bio: 'Changed', year: 3 });
    expect(user).toMatchObject({ role: 'user', email: me.email, firstName: 'Asha', profilePictureUrl: null });
    expect(user.documentStatus).toBe('pending_submission');
  });

  it('takes the year as a number or its digits, from 1 to 10; empty clears it', async () => {
    expect((await put({ year: '10' })).body).toMatchObject({ year: 10 });
    expect((await put({ year: 1 })).body).toMatchObject({ year: 1 });
    for (const bad of [0, 11, -1, 2.5, 'abc', '3a', true, {}]) {
      const res = await put({ year: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body).toEqual({ error: PROFILE_MSG.yearRange });
    }
    expect((await meNow()).year).toBe(1);
    expect((await put({ year: '' })).body).toMatchObject({ year: null });
    expect((await put({ year: 4 })).body).toMatchObject({ year: 4 });
    expect((await put({ year: null })).body).toMatchObject({ year: null });
  });

  it('clears course and bio with empty values and refuses overlong ones', async () => {
    expect((await put({ course: '  ', bio: '' })).body).toMatchObject({ course: null, bio: null });
    let res = await put({ course: 'x'.repeat(101) });
    expect(res).toMatchObject({ status: 400, body: { error: PROFILE_MSG.courseTooLong } });
    res = await put({ bio: 'x'.repeat(501) });
    expect(res).toMatchObject({ status: 400, body: { error: PROFILE_MSG.bioTooLong } });
    res = await put({ course: 42 });
    expect(res.status).toBe(400);
    res = await put([1, 2]);
    expect(res).toMatchObject({ status: 400, body: { error: PROFILE_MSG.invalidBody } });
  });

  it('stores a picker college validated against the catalog by id', async () => {
    me = await addStudent(ctx.server, 'Chitra', 'Iyer');
    const res = await put({ college: { ...mit, acronyms: ['MIT'], types: ['university'] } });
    expect(res.status).toBe(200);
    expect((res.body as unknown as User).college).toEqual({
      id: mit.id,
      name: mit.name,
      country: 'US',
      ...(mit.city ? { city: mit.city } : {}),
      ...(mit.stateName ? { stateName: mit.stateName } : {}),
      ...(mit.aliases ? { aliases: mit.aliases } : {}),
      acronyms: ['MIT'],
      types: ['university'],
    });
    expect((await meNow()).college).toEqual((res.body as unknown as User).college);
  });

  it('refuses a picker college that is not in the catalog, and a forged name stays the catalog name', async () => {
    const res = await put({ college: { ...mit, id: 'no-such-college-id' } });
    expect(res).toMatchObject({ status: 400, body: { error: PROFILE_MSG.collegeUnknown } });
    expect(((await meNow()).college as { id: string }).id).toBe(mit.id);
    const forged = await put({ college: { ...mit, name: 'Totally Real University' } });
    expect(forged.status).toBe(200);
    expect((forged.body as unknown as User).college).toMatchObject({ id: mit.id, name: mit.name });
  });

  it('stores a manually typed college (its name as id, country IN) as a manual college', async () => {
    const name = 'Sunrise   College of Arts ';
    const res = await put({ college: { id: name.trim(), name, country: 'IN' } });
    expect(res.status).toBe(200);
    const college = (res.body as unknown as User).college as { id: string; name: string; country: string };
    expect(college).toMatchObject({ name: 'Sunrise College of Arts', country: 'IN' });
    const manual = await listManualColleges(ctx.server.deps.transactor);
    expect(manual.map((c) => [c.id, c.name, c.status])).toContainEqual([
      college.id,
      'Sunrise College of Arts',
      'manual',
    ]);
    // Sent back unchanged (by its catalog id), it is the same college; a plain name string is manual too.
    expect((await put({ college })).body).toMatchObject({ college });
    const again = await put({ college: 'Sunrise College of Arts' });
    expect((again.body as unknown as User).college).toEqual(college);
    expect(await listManualColleges(ctx.server.deps.transactor)).toHaveLength(manual.length);
  });

  it('refuses an empty manual college name with the spec message, and clears with null or empty', async () => {
    const res = await put({ college: { id: '', name: '   ', country: 'IN' } });
    expect(res).toMatchObject({ status: 400, body: { error: COLLEGE_MSG.manualNameRequired } });
    const bad = await put({ college: { id: 'X', name: 'X', country: 'ZZ' } });
    expect(bad).toMatchObject({ status: 400, body: { error: COLLEGE_MSG.unknownList } });
    expect(await put({ college: 12 })).toMatchObject({
      status: 400,
      body: { error: PROFILE_MSG.collegeUnknown },
    });
    expect((await put({ college: null })).body).toMatchObject({ college: null });
    await put({ college: mit });
    expect((await put({ college: '' })).body).toMatchObject({ college: null });
  });

  it("never touches another user's profile", async () => {
    const before = await meNow(other.token);
    await put({ course: 'Only mine', year: 2, bio: 'mine', college: mit });
    expect(await meNow(other.token)).toEqual(before);
    expect(before).toMatchObject({ course: null, year: null, bio: null, college: null });
  });

  it('is rate-limited per user', async () => {
    const busy = await addStudent(ctx.server, 'Busy', 'Bee');
    for (let i = 0; i < PROFILE_SAVE_RATE.limit; i++)
      expect((await put({ bio: `b${i}` }, busy.token)).status).toBe(200);
    const res = await put({ bio: 'one more' }, busy.token);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect((await put({ bio: 'still fine' }, other.token)).status).toBe(200);
  });

  it("adds at most a few manual colleges a day per student (each lands in the admins' list)", async () => {
    const typist = await addStudent(ctx.server, 'Typist', 'Tee');
    for (let i = 0; i < MANUAL_COLLEGE_RATE.limit; i++)
      expect((await put({ college: `Typed College ${i}` }, typist.token)).status).toBe(200);
    expect((await put({ college: 'Typed College again' }, typist.token)).status).toBe(429);
    // Picking from the catalog is not limited by it.
    expect((await put({ college: mit }, typist.token)).status).toBe(200);
  });
});
