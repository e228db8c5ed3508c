/**
 * First-load cost of the web app (run by hand, not part of the tests): the JS/CSS bytes that /login and a
 * signed-in /talk fetch on a first visit, the first contentful paint of a second (cached) load of /talk and
 * when Talk home's heading shows, medians of RUNS, in headless Chromium against the built server.
 *
 *   pnpm build:app && (cd bench && node --import tsx first-load.ts --label after)
 *
 * WEB_DIST=path measures another build (the code before a change, built elsewhere) the same way.
 * Writes bench/results/first-load-<label>-<time>.json and prints a summary.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { bytesOf, entryImports, isCodeAsset, kb, median, type Bytes } from './first-load-assets';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** WEB_DIST: another build to measure (e.g. of the code before a change), served and counted alike. */
const DIST = path.resolve(process.env.WEB_DIST ?? path.join(ROOT, 'apps/web/dist'));
const PORT = Number(process.env.BENCH_PORT ?? 8797);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.RUNS ?? 5);
const label = process.argv[process.argv.indexOf('--label') + 1] ?? 'run';
const DEMO = { email: 'alex@campustalk.test', password: 'student-demo-123' };

function startServer(dataDir: string): ChildProcess {
  const env = {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST: DIST,
    NODE_ENV: 'test',
  };
  execFileSync(process.execPath, ['server/dist/cli/seed.js'], { cwd: ROOT, env, stdio: 'ignore' });
  return spawn(process.execPath, ['server/dist/main.js'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitHealthy(): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (
      await fetch(`${BASE}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not start');
}

/** The /assets/ JS and CSS a page requests, whether from the network or the service worker. */
function recordAssets(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (isCodeAsset(pathname)) seen.add(pathname);
  });
  return seen;
}

async function loginBytes(browser: Browser): Promise<{ bytes: Bytes; session: BrowserContext }> {
  const context = await browser.newContext({ baseURL: BASE });
  const page = await context.newPage();
  const seen = recordAssets(page);
  await page.goto('/login', { waitUntil: 'networkidle' });
  const bytes = bytesOf(DIST, seen);
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/talk$/);
  return { bytes, session: context };
}

const FCP = `new Promise((resolve) => {
  const read = () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
  const poll = () => (read() === undefined ? setTimeout(poll, 20) : resolve(read()));
  poll();
})`;

/**
 * Records, inside the page, the moment Talk home's own heading (not the session check before it) enters the
 * DOM: a MutationObserver from the first byte, so neither Playwright's polling nor a round trip to read the
 * clock is counted.
 */
const WATCH_HEADING = `(() => {
  const seen = () => [...document.querySelectorAll('h1')].some((h) => h.textContent.trim() === 'Talk');
  new MutationObserver((_records, observer) => {
    if (window.__talkReadyAt === undefined && seen()) {
      window.__talkReadyAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
})()`;

/** When Talk home's own heading was on screen, in ms since navigation. */
async function talkReady(page: Page): Promise<number> {
  await page.getByRole('heading', { name: 'Talk', level: 1 }).waitFor();
  return Number(await page.evaluate('window.__talkReadyAt'));
}

/** A signed-in visitor's first /talk (uncached), then a second, cached one: bytes and both paints. */
async function talkRun(browser: Browser, storageState: Awaited<ReturnType<BrowserContext['storageState']>>) {
  const context = await browser.newContext({ baseURL: BASE, storageState });
  await context.addInitScript(WATCH_HEADING);
  const page = await context.newPage();
  const seen = recordAssets(page);
  await page.goto('/talk');
  const firstReady = await talkReady(page);
  await page.waitForLoadState('networkidle');
  const firstPaint = Number(await page.evaluate(FCP));
  const bytes = bytesOf(DIST, seen);
  // The worker installs after 'load'; the cached load is only meaningful once it controls the page.
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  await page.waitForTimeout(1000);
  // One reload first: the worker's first navigation may still be busy with its precache; the figure is the
  // steady state of a returning student.
  await page.goto('/talk');
  await talkReady(page);
  await page.waitForTimeout(500);
  await page.goto('/talk');
  const cachedReady = await talkReady(page);
  const cachedPaint = Number(await page.evaluate(FCP));
  const controlled = Boolean(await page.evaluate('Boolean(navigator.serviceWorker.controller)'));
  await context.close();
  return { bytes, firstPaint, cachedPaint, firstReady, cachedReady, controlled };
}

const browser = await chromium.launch({
  // Debian's full Chromium where it is installed, as a student's browser; else its headless shell, the one
  // the end-to-end tests install (e2e/chromium.ts).
  executablePath:
    process.env.CHROMIUM_PATH ??
    ['/usr/bin/chromium', '/usr/bin/chromium-headless-shell'].find((file) => fs.existsSync(file)),
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
});
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-first-load-'));
// Started after the browser, and stopped in `finally`: a failed launch must not leave a server behind.
const server = startServer(dataDir);
try {
  await waitHealthy();
  const login = await loginBytes(browser);
  const storageState = await login.session.storageState();
  await login.session.close();
  const runs = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await talkRun(browser, storageState));
  const result = {
    label,
    at: new Date().toISOString(),
    chromium: browser.version(),
    entry: { paths: entryImports(DIST), ...bytesOf(DIST, entryImports(DIST)) },
    login: login.bytes,
    talk: runs[0]!.bytes,
    talkFirstPaintMs: median(runs.map((r) => r.firstPaint)),
    talkCachedPaintMs: median(runs.map((r) => r.cachedPaint)),
    talkFirstReadyMs: median(runs.map((r) => r.firstReady)),
    talkCachedReadyMs: median(runs.map((r) => r.cachedReady)),
    runs: runs.map(({ bytes: _bytes, ...timings }) => timings),
  };
  const out = path.join(
    ROOT,
    'bench/results',
    `first-load-${label}-${result.at.slice(0, 16).replace(':', '-')}.json`,
  );
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  const line = (name: string, b: Bytes) =>
    `${name.padEnd(8)} ${b.files} files, ${kb(b.raw)} raw, ${kb(b.gzip)} gzip`;
  console.log(
    [
      line('entry', result.entry),
      line('/login', result.login),
      line('/talk', result.talk),
      `/talk first contentful paint, median of ${RUNS}: first visit ${result.talkFirstPaintMs.toFixed(0)} ms, cached ${result.talkCachedPaintMs.toFixed(0)} ms`,
      `/talk heading on screen, median of ${RUNS}: first visit ${result.talkFirstReadyMs.toFixed(0)} ms, cached ${result.talkCachedReadyMs.toFixed(0)} ms`,
      `written to ${path.relative(ROOT, out)}`,
    ].join('\n'),
  );
} finally {
  await browser.close();
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}
