import { Hono } from 'hono';
import { COLLEGE_MSG, INDIA_STATE_CODES, isCollegeCountry } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { dialectOf } from '../../lib/db/portable-sql';
import { HttpError } from '../../lib/http-error';
import { apiCors } from '../../lib/security-headers';
import { collegeCatalog } from './catalog';

/** Browsers and proxies may keep a list 10 minutes, then revalidate it with its ETag (a 304 is tiny). */
const CACHE_CONTROL = 'public, max-age=600, stale-while-revalidate=86400';
const FILE = /^([A-Z]{2})(?:-([A-Z]{2}))?\.json$/;

/**
 * The picker's lists (spec 000, section 7: "static" `GET /colleges/{country}.json` and, for India,
 * `/colleges/IN-{stateCode}.json`): public, like the static files they stand for (no account data in
 * them), served from the database with a strong ETag. India is listed per state only: `IN.json` answers
 * 400 with the picker's 'Please select a state…' (the client treats a failed load as an empty list).
 */
export function collegeRoutes(deps: AppDeps) {
  const catalog = collegeCatalog(deps.transactor, deps.log);
  const dialect = dialectOf(deps.db);
  return new Hono().use(apiCors()).get('/:file', async (c) => {
    const match = FILE.exec(c.req.param('file'));
    const country = match?.[1];
    const state = match?.[2] ?? null;
    if (!country || !isCollegeCountry(country)) throw new HttpError(404, COLLEGE_MSG.unknownList);
    if (state !== null && (country !== 'IN' || !(INDIA_STATE_CODES as readonly string[]).includes(state)))
      throw new HttpError(404, COLLEGE_MSG.unknownList);
    if (country === 'IN' && state === null) throw new HttpError(400, COLLEGE_MSG.selectState);

    const file = await catalog.file(country, state, dialect);
    c.header('ETag', file.etag);
    c.header('Cache-Control', CACHE_CONTROL);
    c.header('Vary', 'Accept-Encoding');
    const ifNoneMatch = c.req.header('If-None-Match');
    if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === file.etag || t.trim() === '*'))
      return c.body(null, 304);
    c.header('Content-Type', 'application/json; charset=utf-8');
    if (/\bgzip\b/.test(c.req.header('Accept-Encoding') ?? '')) {
      c.header('Content-Encoding', 'gzip');
      return c.body(new Uint8Array(file.gzip));
    }
    return c.body(new Uint8Array(file.body));
  });
}
