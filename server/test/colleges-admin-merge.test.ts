import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLEGE_ADMIN_MSG, collegeListSchema, type CollegeOption, type User } from '@campus/protocol';
import { ME_UPDATED_BATCH } from '../src/modules/colleges/admin';
import { getFile, startCollegesServer } from './colleges-helpers';
import { manualList, meOf, saveCollege } from './colleges-admin-helpers';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';
import { createAccount } from './verification-helpers';

let ctx: Awaited<ReturnType<typeof startCollegesServer>>;
let admin: TestUser;
let harvard: CollegeOption;
const open: WsClient[] = [];

beforeAll(async () => {
  ctx = await startCollegesServer();
  admin = await createAccount(ctx.server, 'Ada', 'admin');
  const us = collegeListSchema.parse((await getFile(`${ctx.server.url}/colleges/US.json`)).json);
  harvard = us.find((c) => c.name === 'Harvard University')!;
});
afterAll(async () => {
  for (const client of open) client.close();
  await ctx.close();
});

async function connect(user: TestUser) {
  const client = await WsClient.connect(ctx.server, user);
  open.push(client);
  return client;
}

const merge = (id: string, into: unknown) =>
  ctx.server.post(`/api/admin/colleges/${id}/merge`, { into }, admin.token);
const meUpdated = (f: Frame) => f.type === 'me_updated';
const HARVARD_OBJECT = () => ({ id: harvard.id, name: harvard.name, country: 'US' });

describe('POST /api/admin/colleges/{id}/merge', () => {
  it("moves every profile to the listed college, deletes the manual one, and tells each student's devices", async () => {
    const [ann, bob, eve] = await Promise.all(['Ann', 'Bob', 'Eve'].map((n) => createUser(ctx.server, n)));
    const typed = { id: 'Harvard Univ.', name: 'Harvard Univ.', country: 'US' };
    const manual = await saveCollege(ctx.server, ann!.token, typed);
    await saveCollege(ctx.server, bob!.token, typed);
    await saveCollege(ctx.server, eve!.token, 'Somewhere Else College');
    const annPhone = await connect(ann!);
    const annLaptop = await connect(ann!);
    const evePhone = await connect(eve!);

    const res = await merge(manual.id, harvard.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ into: HARVARD_OBJECT(), students: 2 });

    for (const device of [annPhone, annLaptop]) {
      const change = await device.waitFor(meUpdated);
      const user = change.user as User;
      expect(user.id).toBe(ann!.id);
      expect(user.college).toEqual(HARVARD_OBJECT());
    }
    expect((await meOf(ctx.server, bob!)).college).toEqual(HARVARD_OBJECT());
    expect((await meOf(ctx.server, eve!)).college).toMatchObject({ name: 'Somewhere Else College' });
    await WsClient.settle();
    expect(evePhone.frames.filter(meUpdated)).toEqual([]);

    expect((await manualList(ctx.server, admin.token)).colleges.map((c) => c.id)).not.toContain(manual.id);
    const row = await ctx.server.deps.db
      .selectFrom('colleges')
      .select('id')
      .where('id', '=', manual.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    // Gone: merging it again finds nothing.
    expect(await merge(manual.id, harvard.id)).toMatchObject({
      status: 404,
      body: { error: COLLEGE_ADMIN_MSG.notFound },
    });
  });

  it('refuses a listed source, a manual or unknown target, and a malformed one', async () => {
    const ann = await createUser(ctx.server, 'Ann');
    const first = await saveCollege(ctx.server, ann.token, 'First Typed College');
    const second = await saveCollege(ctx.server, ann.token, 'Second Typed College');
    expect(await merge(harvard.id, harvard.id)).toMatchObject({
      status: 409,
      body: { error: COLLEGE_ADMIN_MSG.notManual },
    });
    expect(await merge(first.id, second.id)).toMatchObject({
      status: 409,
      body: { error: COLLEGE_ADMIN_MSG.targetNotListed },
    });
    expect(await merge(first.id, first.id)).toMatchObject({ status: 409 });
    expect(await merge(first.id, 'col_unknown')).toMatchObject({
      status: 404,
      body: { error: COLLEGE_ADMIN_MSG.targetNotFound },
    });
    expect(await merge(first.id, 'x; DROP TABLE users')).toMatchObject({
      status: 400,
      body: { error: COLLEGE_ADMIN_MSG.invalidId },
    });
    expect(await merge(first.id, undefined)).toMatchObject({ status: 400 });
    // Nothing moved: Ann keeps the college she typed last, both stay waiting.
    expect((await meOf(ctx.server, ann)).college).toMatchObject({ id: second.id });
    const waiting = (await manualList(ctx.server, admin.token)).colleges.map((c) => c.id);
    expect(waiting).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  it(`tells students beyond the first ${ME_UPDATED_BATCH} too (later batches, own commits)`, async () => {
    const count = ME_UPDATED_BATCH + 5;
    const students = await Promise.all(
      Array.from({ length: count }, (_, i) => createUser(ctx.server, `S${String(i).padStart(3, '0')}`)),
    );
    const manual = await saveCollege(ctx.server, students[0]!.token, 'Crowded College');
    const stored = JSON.stringify({ id: manual.id, name: manual.name, country: 'IN' });
    await ctx.server.deps.db
      .updateTable('users')
      .set({ college: stored })
      .where(
        'id',
        'in',
        students.map((s) => s.id),
      )
      .execute();
    const listed = (await manualList(ctx.server, admin.token)).colleges.find((c) => c.id === manual.id);
    expect(listed?.students).toBe(count);

    // The batches go by id: the last id is in the last batch.
    const last = [...students].sort((a, b) => (a.id < b.id ? -1 : 1)).at(-1)!;
    const device = await connect(last);
    const res = await merge(manual.id, harvard.id);
    expect(res.body).toEqual({ into: HARVARD_OBJECT(), students: count });
    const change = await device.waitFor(meUpdated);
    expect((change.user as User).college).toEqual(HARVARD_OBJECT());
    const moved = await ctx.server.deps.db
      .selectFrom('users')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .where('college', '=', JSON.stringify(HARVARD_OBJECT()))
      .executeTakeFirstOrThrow();
    expect(Number(moved.n)).toBeGreaterThanOrEqual(count);
  });
});
