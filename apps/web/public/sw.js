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
 * Brings the cache to the current build: adds the assets it lacks and drops those of older builds (hashed
 * names: what is cached never goes stale, it only piles up). Without a list, nothing is dropped.
 */
async function syncAssets(extra = []) {
  const cache = await caches.open(CACHE);
  const listed = await manifestAssets();
  const wanted = new Set([...(listed || []), ...extra]);
  const missing = [];
  for (const path of wanted) if (!(await cache.match(path))) missing.push(path);
  await Promise.allSettled(missing.map((path) => cache.add(path)));
  if (!listed) return;
  for (const request of await cache.keys()) {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/assets/') && !wanted.has(pathname)) await cache.delete(request);
  }
}

async function precache() {
  const cache = await caches.open(CACHE);
  const response = await fetch('/', { cache: 'no-cache' });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(INDEX, response);
  await Promise.allSettled(STATIC_FILES.map((path) => cache.add(path)));
  await syncAssets(assetsOf(html));
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
      // Only for a new build: a sync during every load would compete with the page's own asset requests.
      if (changed) waitUntil(syncOnce());
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

/** Hashed assets never change: the cache first, otherwise the network, kept as they come. */
async function asset(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** Unhashed shell files: the network first so they stay current, the cache when offline. */
async function staticFile(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request);
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
    caches.open(CACHE).then((cache) => Promise.allSettled(paths.map((path) => cache.add(path)))),
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
