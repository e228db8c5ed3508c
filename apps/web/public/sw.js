/* global self, caches */
/*
 * Campus Talk service worker: keeps the app shell (index.html and the hashed build assets) so that a reload
 * while offline still opens the app, which then renders from its local database. Data never goes through
 * here: /api, /ws, /files and /dev are left to the network and never cached. Registered only for the
 * production build in a browser (the desktop app serves its files itself).
 */
const CACHE = 'campus-talk-shell-v1';
const INDEX = '/index.html';
/** Unhashed files of the shell, besides what index.html references. */
const STATIC_FILES = ['/theme-init.js', '/favicon.svg'];
const NEVER = /^\/(?:api|ws|files|dev|notes|healthz)(?:\/|$)/;

function isShellAsset(url) {
  return url.origin === self.location.origin && url.pathname.startsWith('/assets/');
}

/** The /assets/… files index.html loads (entry script, styles, preloaded chunks). */
function assetsOf(html) {
  const found = new Set();
  for (const match of html.matchAll(/(?:src|href)="(\/assets\/[^"?#]+)"/g)) found.add(match[1]);
  return [...found];
}

async function precache() {
  const cache = await caches.open(CACHE);
  const response = await fetch('/', { cache: 'no-cache' });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(INDEX, response);
  await Promise.allSettled([...STATIC_FILES, ...assetsOf(html)].map((path) => cache.add(path)));
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

/** Navigations: the network first (a deploy is picked up at once), the cached shell when it fails. */
async function navigate(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    const type = response.headers.get('Content-Type') || '';
    if (response.ok && type.includes('text/html')) await cache.put(INDEX, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(INDEX);
    if (cached) return cached;
    throw error;
  }
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
  if (request.mode === 'navigate') event.respondWith(navigate(request));
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
