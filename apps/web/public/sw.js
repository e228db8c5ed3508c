/* global self, caches */
/*
 * Campus Talk service worker: keeps the app shell (index.html and every hashed build asset, the screens'
 * lazily loaded chunks included) so that a reload while offline still opens the app on any screen, which
 * then renders from its local database. Data never goes through here: /api, /ws, /files and /dev are left
 * to the network and never cached. Registered only for the production build in a browser (the desktop app
 * serves its files itself).
 */
const CACHE = 'campus-talk-shell-v1';
const INDEX = '/index.html';
/** Written by the build: every file under /assets/ (see vite.config.ts). */
const MANIFEST = '/asset-manifest.json';
/** Unhashed files of the shell, besides what index.html references. */
const STATIC_FILES = ['/theme-init.js', '/favicon.svg'];
const NEVER = /^\/(?:api|ws|files|dev|notes|healthz|readyz)(?:\/|$)/;

function isShellAsset(url) {
  return url.origin === self.location.origin && url.pathname.startsWith('/assets/');
}

/** The /assets/… files index.html loads (entry script, styles, preloaded chunks). */
function assetsOf(html) {
  const found = new Set();
  for (const match of html.matchAll(/(?:src|href)="(\/assets\/[^"?#]+)"/g)) found.add(match[1]);
  return [...found];
}

/**
 * Whether a response may stand for one of the shell's files (a script, a stylesheet, a font, an image): never
 * an HTML page. That is the app shell a node answers for a file it lacks (an older one did with 200, and a
 * node of the old build lacks the new build's files during a rolling deploy); kept cache-first under the
 * file's name, it would be a blank page until the next deploy.
 */
function isFile(response) {
  return response.ok && !(response.headers.get('Content-Type') || '').includes('text/html');
}

/** The cached copy of a shell file; an HTML page kept under its name (by an earlier worker) is dropped. */
async function cachedFile(cache, request) {
  const cached = await cache.match(request);
  if (!cached || isFile(cached)) return cached;
  await cache.delete(request);
  return undefined;
}

/** Cache.add, but only for a response that is the file (see isFile); rejects otherwise, as add does. */
async function addFile(cache, path) {
  const response = await fetch(path);
  if (!isFile(response)) throw new TypeError(`Not the file: ${path}`);
  await cache.put(path, response);
}

/** The /assets/… files of the build the cached index.html is of, and that index's text ('' without one). */
async function cachedBuild(cache) {
  const index = await cache.match(INDEX);
  const html = index ? await index.text() : '';
  return { html, assets: assetsOf(html) };
}

/** Every built asset, from the list the build writes (vite.config.ts); none when there is no such list. */
async function manifestAssets() {
  try {
    const response = await fetch(MANIFEST, { cache: 'no-cache' });
    if (!response.ok) return null;
    const { assets } = await response.json();
    return Array.isArray(assets)
      ? assets.filter((path) => typeof path === 'string' && path.startsWith('/assets/'))
      : null;
  } catch {
    return null;
  }
}

/**
 * Set when the last sync left the cache short of the cached index's build (a list from another build, a file
 * not fetched, a newer index meanwhile): the next navigation syncs again, not only the next deploy's.
 */
let behind = false;

/**
 * Brings the cache to the build of the cached index.html: adds the assets it lacks and drops those of older
 * builds (hashed names: what is cached never goes stale, it only piles up). The list of a build names every
 * file under /assets/, so one that lacks a file this index loads is another build's: during a rolling deploy
 * an old node may answer it after a new one served the index. Such a list is ignored (it would drop the new
 * build and bring back the old); without a trusted list only the index's own files are fetched, none dropped.
 */
async function syncAssets() {
  const cache = await caches.open(CACHE);
  const build = await cachedBuild(cache);
  const listed = await manifestAssets();
  const trusted = listed && build.assets.every((path) => listed.includes(path)) ? listed : null;
  const wanted = new Set([...build.assets, ...(trusted || [])]);
  const missing = [];
  for (const path of wanted) if (!(await cachedFile(cache, path))) missing.push(path);
  const added = await Promise.allSettled(missing.map((path) => addFile(cache, path)));
  const changed = (await cachedBuild(cache)).html !== build.html;
  behind = (listed !== null && !trusted) || changed || added.some((result) => result.status === 'rejected');
  if (trusted && !changed) await dropUnlisted(cache, wanted);
}

/** Drops the assets of other builds (those the trusted list and the cached index do not name). */
async function dropUnlisted(cache, wanted) {
  for (const request of await cache.keys()) {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/assets/') && !wanted.has(pathname)) await cache.delete(request);
  }
}

async function precache() {
  const cache = await caches.open(CACHE);
  const response = await fetch('/', { cache: 'no-cache' });
  if (!response.ok) return;
  await cache.put(INDEX, response);
  await Promise.allSettled(STATIC_FILES.map((path) => addFile(cache, path)));
  await syncAssets();
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

/**
 * Navigations: the network first (a deploy is picked up at once), the cached shell when it fails. An
 * index.html that differs from the cached one is a new build: its assets are fetched in the background, so
 * that the next offline reload finds every screen of it.
 */
async function navigate(request, waitUntil) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    const type = response.headers.get('Content-Type') || '';
    if (response.ok && type.includes('text/html')) {
      const previous = await cache.match(INDEX);
      const html = await response.clone().text();
      const changed = !previous || (await previous.text()) !== html;
      await cache.put(INDEX, response.clone());
      // Only for a new build (or one the last sync left incomplete): a sync during every load would compete
      // with the page's own asset requests.
      if (changed || behind) waitUntil(syncOnce());
    }
    return response;
  } catch (error) {
    const cached = await cache.match(INDEX);
    if (cached) return cached;
    throw error;
  }
}

/** One sync at a time: navigations come in bursts (redirects, reloads) and would repeat the same work. */
let syncing = null;
function syncOnce() {
  if (!syncing) syncing = syncAssets().finally(() => (syncing = null));
  return syncing;
}

/** Hashed assets never change: the cache first, otherwise the network, kept as they come if they are the file. */
async function asset(request) {
  const cache = await caches.open(CACHE);
  const cached = await cachedFile(cache, request);
  if (cached) return cached;
  const response = await fetch(request);
  if (isFile(response)) await cache.put(request, response.clone());
  return response;
}

/** Unhashed shell files: the network first so they stay current, the cache when offline. */
async function staticFile(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (isFile(response)) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cachedFile(cache, request);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NEVER.test(url.pathname)) return;
  if (request.mode === 'navigate') event.respondWith(navigate(request, (work) => event.waitUntil(work)));
  else if (isShellAsset(url)) event.respondWith(asset(request));
  else if (STATIC_FILES.includes(url.pathname)) event.respondWith(staticFile(request));
});

/** The page lists the assets it loaded before this worker controlled it (lazy chunks included). */
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'cache-assets' || !Array.isArray(data.paths)) return;
  const paths = data.paths.filter((path) => typeof path === 'string' && path.startsWith('/assets/'));
  event.waitUntil(
    caches.open(CACHE).then((cache) => Promise.allSettled(paths.map((path) => addFile(cache, path)))),
  );
});

/*
 * Web push (notifications.ts on the server sends one while the user has no live connection). The payload is
 * { title, body, url, type, notificationId }; the tag is the notification's id, so a repeat replaces it.
 */
function pushPayload(event) {
  try {
    const data = event.data ? event.data.json() : null;
    if (data && typeof data.title === 'string') return data;
  } catch {
    // Not JSON: shown with the generic title below.
  }
  return { title: 'Campus Talk', body: event.data ? event.data.text() : '', url: '/' };
}

/** Only in-app paths ('/confessions?confessionId=…'), never another origin. */
function appPath(url) {
  return typeof url === 'string' && /^\/(?!\/)/.test(url) ? url : '/';
}

self.addEventListener('push', (event) => {
  const payload = pushPayload(event);
  const options = {
    body: typeof payload.body === 'string' ? payload.body : '',
    icon: '/favicon.svg',
    data: { url: appPath(payload.url) },
  };
  if (typeof payload.notificationId === 'string') options.tag = payload.notificationId;
  event.waitUntil(self.registration.showNotification(payload.title, options));
});

/**
 * A click focuses an open window of the app and asks it to navigate (the page's platform layer handles
 * { type: 'navigate', route }; '/talk?friendRequests=1' opens the friend-requests modal), or opens a new
 * window at that path.
 */
async function openApp(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const mine = windows.filter((client) => new URL(client.url).origin === self.location.origin);
  const target = mine.find((client) => client.focused) || mine[0];
  if (target) {
    const focused = await target.focus();
    (focused || target).postMessage({ type: 'navigate', route: url });
    return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(openApp(appPath(data.url)));
});
