/**
 * The college picker's largest list, measured end to end (run by hand, never in CI):
 * `pnpm --filter @campus/bench bench:colleges`. Starts the real server on a temporary database, fetches
 * every country file (and each Indian state's) as the picker does, reports the largest one's size, gzip size
 * and fetch time (first build, then cached, then a 304), and for it the client's index build and the time of
 * one keystroke's search (the picker's own `indexColleges`, median and worst over typed prefixes of real
 * names). Times are wall clock on this machine; compare runs of the same session.
 */
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { COLLEGE_COUNTRIES, INDIA_STATES, type CollegeOption } from '@campus/protocol';
import { startServer } from '../server/src/server';
import { indexColleges } from '../apps/web/src/features/profile/college-picker/college-index';
import { benchTempDir } from './shared/tmpfs';

const dataDir = benchTempDir('campus-talk-bench-colleges-');
const server = await startServer({
  config: { port: 0, host: '127.0.0.1', dataDir, nodeEnv: 'test', logLevel: 'silent' },
});

async function timed(url: string, headers: Record<string, string> = {}) {
  const start = performance.now();
  const res = await fetch(server.url + url, { headers });
  const body = await res.text();
  return { ms: performance.now() - start, status: res.status, body, etag: res.headers.get('etag') };
}

try {
  const files = [
    ...COLLEGE_COUNTRIES.filter((c) => c.code !== 'IN').map((c) => `/colleges/${c.code}.json`),
    ...INDIA_STATES.map((s) => `/colleges/IN-${s.code}.json`),
  ];
  const first = await timed(files[0]!); // loads the default data set once
  const sizes: { url: string; bytes: number }[] = [];
  for (const url of files) sizes.push({ url, bytes: Buffer.byteLength((await timed(url)).body) });
  const largest = sizes.sort((a, b) => b.bytes - a.bytes)[0]!;
  const cached = await timed(largest.url);
  const revalidated = await timed(largest.url, { 'if-none-match': cached.etag ?? '' });
  const options = JSON.parse(cached.body) as CollegeOption[];

  const buildStart = performance.now();
  const index = indexColleges(options);
  const buildMs = performance.now() - buildStart;
  const queries = options
    .filter((_, i) => i % 37 === 0)
    .flatMap((o) => [1, 3, 6, 10].map((n) => o.name.slice(0, n)));
  const times = queries.map((q) => {
    const start = performance.now();
    index.search(q);
    return performance.now() - start;
  });
  times.sort((a, b) => a - b);
  const report = {
    at: new Date().toISOString(),
    firstRequestMs: Math.round(first.ms),
    largest: largest.url,
    colleges: options.length,
    bytes: largest.bytes,
    gzipBytes: gzipSync(cached.body).length,
    fetchCachedMs: Number(cached.ms.toFixed(2)),
    fetch304Ms: Number(revalidated.ms.toFixed(2)),
    status304: revalidated.status,
    indexBuildMs: Number(buildMs.toFixed(2)),
    searches: times.length,
    searchMedianMs: Number(times[Math.floor(times.length / 2)]!.toFixed(3)),
    searchWorstMs: Number(times[times.length - 1]!.toFixed(3)),
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
