import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addManualCollege,
  collegeForEmailDomain,
  importColleges,
  listManualColleges,
} from '../src/modules/colleges';
import { getFile, startCollegesServer } from './colleges-helpers';

describe('colleges: e-mail domains and manually added colleges', () => {
  let ctx: Awaited<ReturnType<typeof startCollegesServer>>;
  beforeAll(async () => {
    ctx = await startCollegesServer();
  });
  afterAll(() => ctx.close());

  it("finds the college of an address's domain or of its nearest parent domain, loading the default set first", async () => {
    const { transactor } = ctx.server.deps;
    expect(ctx.source.reads).toBe(0);
    expect(await collegeForEmailDomain(transactor, 'ada@mit.edu')).toMatchObject({
      name: 'Massachusetts Institute of Technology',
      country: 'US',
      status: 'listed',
      source: 'swot-fixture@1',
    });
    expect(ctx.source.reads).toBe(1);
    // csail.mit.edu is its own entry (the same college); a.b.csail.mit.edu falls back to it.
    expect((await collegeForEmailDomain(transactor, 'x@a.b.csail.mit.edu'))?.name).toBe(
      'Massachusetts Institute of Technology',
    );
    expect(await collegeForEmailDomain(transactor, 'Student@CSE.IITB.AC.IN')).toMatchObject({
      name: 'Indian Institute of Technology Bombay',
      stateCode: 'MH',
      stateName: 'Maharashtra',
    });
    expect(await collegeForEmailDomain(transactor, 'x@gmail.com')).toBeUndefined();
    expect(await collegeForEmailDomain(transactor, 'x@ac.in')).toBeUndefined();
    expect(await collegeForEmailDomain(transactor, 'x@spam.edu')).toBeUndefined();
    expect(await collegeForEmailDomain(transactor, 'not-an-address')).toBeUndefined();
    expect(ctx.source.reads).toBe(1);
  });

  it('stores a manual college as such, trimmed, once, out of the picker lists; an empty name is refused', async () => {
    const { transactor } = ctx.server.deps;
    const added = await transactor.commit((tx) =>
      addManualCollege(tx, { name: '  Shree   Ram College of Commerce ', country: 'IN' }),
    );
    expect(added).toMatchObject({
      name: 'Shree Ram College of Commerce',
      country: 'IN',
      status: 'manual',
      source: 'manual',
      stateCode: null,
    });
    const again = await transactor.commit((tx) =>
      addManualCollege(tx, { name: 'shree ram college of commerce', country: 'in' }),
    );
    expect(again.id).toBe(added.id);
    await expect(
      transactor.commit((tx) => addManualCollege(tx, { name: '   ', country: 'IN' })),
    ).rejects.toThrow(/required/);
    expect((await listManualColleges(transactor)).map((c) => c.name)).toEqual([
      'Shree Ram College of Commerce',
    ]);
    for (const state of ['DL', 'MH']) {
      const list = (await getFile(`${ctx.server.url}/colleges/IN-${state}.json`)).json as { name: string }[];
      expect(list.map((c) => c.name)).not.toContain('Shree Ram College of Commerce');
    }
    // A listed college of the same name is returned as it is, not duplicated as manual.
    const listed = await transactor.commit((tx) =>
      addManualCollege(tx, { name: 'Harvard University', country: 'US' }),
    );
    expect(listed).toMatchObject({ status: 'listed', source: 'swot-fixture@1' });
    // An import of a manual college's name (same country, no state) makes it listed.
    const summary = await importColleges(
      transactor,
      [
        {
          name: 'Shree Ram College of Commerce',
          country: 'IN',
          stateCode: null,
          stateName: null,
          city: null,
          domains: ['srcc.edu'],
        },
      ],
      'import:approved.csv',
    );
    expect(summary).toMatchObject({ added: 0, updated: 1 });
    expect(await listManualColleges(transactor)).toEqual([]);
    expect(await collegeForEmailDomain(transactor, 'x@srcc.edu')).toMatchObject({
      id: added.id,
      status: 'listed',
      source: 'import:approved.csv',
    });
  });
});
