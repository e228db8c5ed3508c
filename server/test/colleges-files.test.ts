import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLEGE_MSG, collegeListSchema } from '@campus/protocol';
import { collegeCatalog, importColleges } from '../src/modules/colleges';
import { rowsOf, valueOf } from './support/sql';
import { startTestServer } from './support/test-server';
import { fixtureSource, getFile, startCollegesServer, writeSwotFixture } from './colleges-helpers';

describe('GET /colleges/{country}.json and /colleges/IN-{state}.json', () => {
  let ctx: Awaited<ReturnType<typeof startCollegesServer>>;
  beforeAll(async () => {
    ctx = await startCollegesServer();
  });
  afterAll(() => ctx.close());

  it("serves a country's listed colleges sorted by name, without sign-in, with a strong ETag and Cache-Control", async () => {
    const res = await getFile(`${ctx.server.url}/colleges/US.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    const list = collegeListSchema.parse(res.json);
    // .edu is the United States'; schools (k12) and the stoplist are left out; csail.mit.edu is MIT.
    expect(list.map((c) => c.name)).toEqual([
      'Harvard University',
      'Massachusetts Institute of Technology',
      'University of California, Berkeley',
    ]);
    expect(list[0]).toMatchObject({ country: 'US', city: '', stateName: '', aliases: ['Harvard'] });
    expect(list[0]!.id).toMatch(/^col_/);

    const again = await getFile(`${ctx.server.url}/colleges/US.json`, {
      'if-none-match': res.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(res.headers.get('etag'));
    const stale = await getFile(`${ctx.server.url}/colleges/US.json`, { 'if-none-match': '"other"' });
    expect(stale.status).toBe(200);
  });

  it('serves India per state, with the state and city inferred from the name; IN.json asks for a state', async () => {
    const mh = await getFile(`${ctx.server.url}/colleges/IN-MH.json`);
    expect(mh.status).toBe(200);
    expect(mh.json).toEqual([
      expect.objectContaining({
        name: 'College of Engineering, Pune',
        country: 'IN',
        city: 'Pune',
        stateName: 'Maharashtra',
      }),
      expect.objectContaining({
        name: 'Indian Institute of Technology Bombay',
        city: 'Bombay',
        stateName: 'Maharashtra',
      }),
    ]);
    const tn = await getFile(`${ctx.server.url}/colleges/IN-TN.json`);
    expect((tn.json as { name: string }[]).map((c) => c.name)).toEqual([
      'National Institute of Technology, Tiruchirappalli',
    ]);
    expect((await getFile(`${ctx.server.url}/colleges/IN-LA.json`)).json).toEqual([]);
    const india = await getFile(`${ctx.server.url}/colleges/IN.json`);
    expect(india.status).toBe(400);
    expect(india.json).toEqual({ error: COLLEGE_MSG.selectState });
  });

  it('answers 404 for a country the picker does not offer, an unknown state, or a state outside India', async () => {
    for (const file of [
      'CN.json',
      'XX.json',
      'IN-ZZ.json',
      'IN-TG.json',
      'US-CA.json',
      'us.json',
      'GB',
      'GB.txt',
    ]) {
      const res = await getFile(`${ctx.server.url}/colleges/${file}`);
      expect(res.status, file).toBe(404);
    }
    const gb = await getFile(`${ctx.server.url}/colleges/GB.json`);
    expect((gb.json as { name: string }[]).map((c) => c.name)).toEqual(['University of Oxford']);
  });

  it('serves the gzipped bytes to a client that accepts them', async () => {
    const res = await fetch(`${ctx.server.url}/colleges/US.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(((await res.json()) as unknown[]).length).toBe(3);
  });

  it('a new import changes the file and its ETag; the same import again changes neither', async () => {
    const before = await getFile(`${ctx.server.url}/colleges/GB.json`);
    const record = {
      name: 'University of Cambridge',
      country: 'GB' as const,
      stateCode: null,
      stateName: null,
      city: 'Cambridge',
      domains: ['cam.ac.uk'],
    };
    await importColleges(ctx.server.deps.transactor, [record], 'import:test.csv');
    const after = await getFile(`${ctx.server.url}/colleges/GB.json`);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect((after.json as { name: string }[]).map((c) => c.name)).toEqual([
      'University of Cambridge',
      'University of Oxford',
    ]);
    const summary = await importColleges(ctx.server.deps.transactor, [record], 'import:test.csv');
    expect(summary).toMatchObject({ added: 0, updated: 0, unchanged: 1 });
    const third = await getFile(`${ctx.server.url}/colleges/GB.json`, {
      'if-none-match': after.headers.get('etag')!,
    });
    expect(third.status).toBe(304);
  });
});

describe('the default data set', () => {
  it('is not loaded at start, is loaded once on the first request (concurrent ones share it), and not again after a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-colleges-once-'));
    const root = writeSwotFixture();
    try {
      const first = await startTestServer({ config: { dataDir } });
      const source = fixtureSource(root);
      const catalog = collegeCatalog(first.deps.transactor);
      catalog.useSource(source);
      const count = () => valueOf(first, 'SELECT count(*) FROM colleges');
      expect(await count()).toBe(0);
      const results = await Promise.all(
        ['US', 'GB', 'ID', 'IN-MH', 'US'].map((f) => getFile(`${first.url}/colleges/${f}.json`)),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(source.reads).toBe(1);
      expect(catalog.loads).toHaveLength(1);
      expect(catalog.loads[0]).toMatchObject({ source: 'swot-fixture@1', loaded: true, colleges: 9 });
      const loads = await rowsOf(first, 'SELECT source, colleges FROM college_loads');
      expect(loads).toEqual([{ source: 'swot-fixture@1', colleges: 9 }]);
      const sources = await rowsOf(first, 'SELECT DISTINCT source, status FROM colleges');
      expect(sources).toEqual([{ source: 'swot-fixture@1', status: 'listed' }]);
      await getFile(`${first.url}/colleges/US.json`);
      expect(source.reads).toBe(1);
      await first.stop();

      const second = await startTestServer({ config: { dataDir } });
      const again = fixtureSource(root);
      collegeCatalog(second.deps.transactor).useSource(again);
      expect((await getFile(`${second.url}/colleges/US.json`)).status).toBe(200);
      expect(again.reads).toBe(0);
      expect(await valueOf(second, 'SELECT count(*) FROM colleges')).toBe(9);
      await second.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
