import { afterEach, describe, expect, it, vi } from 'vitest';
import source from '../public/sw.js?raw';
import { shouldRegisterServiceWorker } from '../src/features/offline/service-worker';

const ORIGIN = 'https://campus.test';
const INDEX_HTML =
  '<script src="/theme-init.js"></script><script type="module" crossorigin src="/assets/index-abc.js"></script>' +
  '<link rel="stylesheet" crossorigin href="/assets/index-def.css">';

interface FakeRequest {
  url: string;
  method: string;
  mode: string;
}
type Listener = (event: Record<string, unknown>) => void;

const pathOf = (input: string | FakeRequest) =>
  new URL(typeof input === 'string' ? input : input.url, ORIGIN).pathname;

/**
 * Runs public/sw.js against an in-memory Cache Storage and a network the test switches off. `shellOnce`
 * paths are answered once with the app shell (text/html, 200), as a node of an older build did for a file it
 * lacked; the manifest waits for `manifestGate` when one is set (to interleave a sync with page requests).
 */
function startWorker() {
  const network = {
    up: true,
    requests: [] as string[],
    manifest: null as string[] | null,
    html: INDEX_HTML,
    shellOnce: new Set<string>(),
    manifestGate: null as Promise<void> | null,
  };
  const fetchFn = vi.fn(async (input: string | FakeRequest) => {
    const path = pathOf(input);
    network.requests.push(path);
    if (!network.up) throw new TypeError('Failed to fetch');
    if (network.shellOnce.delete(path)) {
      return new Response(network.html, { headers: { 'Content-Type': 'text/html; charset=UTF-8' } });
    }
    if (path === '/asset-manifest.json') {
      const manifest = network.manifest;
      if (network.manifestGate) await network.manifestGate;
      if (!manifest) return new Response('Not found', { status: 404 });
      return Response.json({ assets: manifest });
    }
    const html = path === '/' || !path.includes('.');
    return new Response(html ? network.html : `body of ${path}`, {
      headers: { 'Content-Type': html ? 'text/html' : 'text/javascript' },
    });
  });
  const stores = new Map<string, Map<string, Response>>();
  const cacheFor = (name: string) => {
    const store = stores.get(name) ?? new Map<string, Response>();
    stores.set(name, store);
    return {
      match: async (input: string | FakeRequest) => store.get(pathOf(input))?.clone(),
      put: async (input: string | FakeRequest, response: Response) => void store.set(pathOf(input), response),
      add: async (input: string) => {
        const response = await fetchFn(input);
        store.set(pathOf(input), response);
      },
      keys: async () => [...store.keys()].map((path) => ({ url: `${ORIGIN}${path}` })),
      delete: async (input: string | FakeRequest) => store.delete(pathOf(input)),
    };
  };
  const caches = {
    open: async (name: string) => cacheFor(name),
    keys: async () => [...stores.keys()],
    delete: async (name: string) => stores.delete(name),
  };
  const listeners = new Map<string, Listener>();
  /** What the worker asked the browser to wait for (waitUntil), so a test can wait for its background work. */
  const pending: Promise<unknown>[] = [];
  async function idle() {
    for (let done = 0; done < pending.length;) {
      const upTo = pending.length;
      await Promise.allSettled(pending.slice(done, upTo));
      done = upTo;
    }
  }
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: async () => undefined,
    clients: { claim: async () => undefined },
  };
  new Function('self', 'caches', 'fetch', source)(self, caches, fetchFn);

  async function lifecycle(type: 'install' | 'activate') {
    let work: Promise<unknown> = Promise.resolve();
    listeners.get(type)!({ waitUntil: (promise: Promise<unknown>) => (work = promise) });
    await work;
  }
  /** The worker's answer, or null when it lets the browser handle the request. */
  async function request(path: string, init: { method?: string; mode?: string } = {}) {
    let answer: Promise<Response> | null = null;
    const req: FakeRequest = {
      url: `${ORIGIN}${path}`,
      method: init.method ?? 'GET',
      mode: init.mode ?? 'cors',
    };
    listeners.get('fetch')!({
      request: req,
      respondWith: (promise: Promise<Response>) => (answer = promise),
      waitUntil: (promise: Promise<unknown>) => pending.push(promise),
    });
    return answer === null ? null : await (answer as Promise<Response>);
  }
  /** A message from the page, such as { type: 'cache-assets', paths }. */
  function message(data: unknown) {
    listeners.get('message')!({ data, waitUntil: (promise: Promise<unknown>) => pending.push(promise) });
  }
  /** An entry the cache already holds, e.g. one an earlier version of this worker kept. */
  const seed = (path: string, response: Response) => cacheFor('campus-talk-shell-v1').put(path, response);
  const cached = () => [...(stores.get('campus-talk-shell-v1')?.keys() ?? [])].sort();
  return { network, lifecycle, request, message, seed, idle, cached };
}

describe('the app-shell service worker', () => {
  it('keeps index.html and the assets it loads at install', async () => {
    const worker = startWorker();
    await worker.lifecycle('install');
    await worker.lifecycle('activate');
    expect(worker.cached()).toEqual([
      '/assets/index-abc.js',
      '/assets/index-def.css',
      '/favicon.svg',
      '/index.html',
      '/theme-init.js',
    ]);
  });

  it('answers navigations from the network, and with the cached app when offline', async () => {
    const worker = startWorker();
    await worker.lifecycle('install');
    const online = await worker.request('/chat/u-sam', { mode: 'navigate' });
    expect(await online!.text()).toBe(INDEX_HTML);
    worker.network.up = false;
    const offline = await worker.request('/talk', { mode: 'navigate' });
    expect(await offline!.text()).toBe(INDEX_HTML);
    const asset = await worker.request('/assets/index-abc.js');
    expect(await asset!.text()).toBe('body of /assets/index-abc.js');
  });

  it('keeps lazily loaded assets as they come', async () => {
    const worker = startWorker();
    await worker.lifecycle('install');
    await worker.request('/assets/emoji-123.js');
    worker.network.up = false;
    expect(await (await worker.request('/assets/emoji-123.js'))!.text()).toBe('body of /assets/emoji-123.js');
  });

  it('keeps every chunk the build lists at install, so any screen opens offline', async () => {
    const worker = startWorker();
    worker.network.manifest = ['/assets/index-abc.js', '/assets/index-def.css', '/assets/ChatPage-1.js'];
    await worker.lifecycle('install');
    expect(worker.cached()).toContain('/assets/ChatPage-1.js');
    worker.network.up = false;
    expect(await (await worker.request('/assets/ChatPage-1.js'))!.text()).toBe(
      'body of /assets/ChatPage-1.js',
    );
  });

  it('after a deploy, fetches the new build’s chunks on navigation and drops the old ones', async () => {
    const worker = startWorker();
    worker.network.manifest = ['/assets/index-abc.js', '/assets/index-def.css', '/assets/ChatPage-1.js'];
    await worker.lifecycle('install');
    worker.network.manifest = ['/assets/index-new.js', '/assets/index-def.css', '/assets/ChatPage-2.js'];
    worker.network.html = INDEX_HTML.replace('index-abc.js', 'index-new.js');
    await worker.request('/talk', { mode: 'navigate' });
    await vi.waitFor(() => expect(worker.cached()).toContain('/assets/ChatPage-2.js'));
    await vi.waitFor(() => expect(worker.cached()).not.toContain('/assets/ChatPage-1.js'));
    expect(worker.cached()).toContain('/assets/index-new.js');
  });

  it('does no asset work on a navigation to the same build', async () => {
    const worker = startWorker();
    worker.network.manifest = ['/assets/index-abc.js', '/assets/index-def.css'];
    await worker.lifecycle('install');
    worker.network.requests.length = 0;
    await worker.request('/talk', { mode: 'navigate' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(worker.network.requests).toEqual(['/talk']);
  });

  // Rolling deploys: a node of the older build answers a file of the newer one with the app shell (HTML, 200).
  // Kept under the asset's name, cache-first, it would be a blank page until the next deploy.
  describe('never keeps or serves the app shell under an asset’s name', () => {
    const javascript = async (response: Response | null) => {
      expect(response!.headers.get('Content-Type')).toBe('text/javascript');
      return await response!.text();
    };

    it('at install: the next request gets the JavaScript, online and offline', async () => {
      const worker = startWorker();
      worker.network.shellOnce.add('/assets/index-abc.js');
      await worker.lifecycle('install');
      expect(worker.cached()).not.toContain('/assets/index-abc.js');
      expect(await javascript(await worker.request('/assets/index-abc.js'))).toBe(
        'body of /assets/index-abc.js',
      );
      worker.network.up = false;
      expect(await javascript(await worker.request('/assets/index-abc.js'))).toBe(
        'body of /assets/index-abc.js',
      );
    });

    it('when the page loads it: the next request gets the JavaScript', async () => {
      const worker = startWorker();
      await worker.lifecycle('install');
      worker.network.shellOnce.add('/assets/emoji-123.js');
      const first = await worker.request('/assets/emoji-123.js');
      expect(first!.headers.get('Content-Type')).toContain('text/html');
      expect(worker.cached()).not.toContain('/assets/emoji-123.js');
      expect(await javascript(await worker.request('/assets/emoji-123.js'))).toBe(
        'body of /assets/emoji-123.js',
      );
      worker.network.up = false;
      expect(await javascript(await worker.request('/assets/emoji-123.js'))).toBe(
        'body of /assets/emoji-123.js',
      );
    });

    it('when the page lists what it loaded', async () => {
      const worker = startWorker();
      await worker.lifecycle('install');
      worker.network.shellOnce.add('/assets/Lazy-1.js');
      worker.message({ type: 'cache-assets', paths: ['/assets/Lazy-1.js'] });
      await worker.idle();
      expect(worker.cached()).not.toContain('/assets/Lazy-1.js');
      worker.message({ type: 'cache-assets', paths: ['/assets/Lazy-1.js'] });
      await worker.idle();
      worker.network.up = false;
      expect(await javascript(await worker.request('/assets/Lazy-1.js'))).toBe('body of /assets/Lazy-1.js');
    });

    it('drops one an earlier worker kept, and fetches the file again', async () => {
      const worker = startWorker();
      await worker.seed(
        '/assets/index-abc.js',
        new Response(INDEX_HTML, { headers: { 'Content-Type': 'text/html' } }),
      );
      await worker.lifecycle('install');
      worker.network.up = false;
      expect(await javascript(await worker.request('/assets/index-abc.js'))).toBe(
        'body of /assets/index-abc.js',
      );
    });
  });

  it('after a deploy, an old node’s list of assets drops none of the new build, and the next navigation syncs', async () => {
    const worker = startWorker();
    worker.network.manifest = ['/assets/index-abc.js', '/assets/index-def.css', '/assets/ChatPage-1.js'];
    await worker.lifecycle('install');
    // A new node serves the new index.html; the manifest comes from an old node, after the page loaded its files.
    worker.network.html = INDEX_HTML.replace('index-abc.js', 'index-new.js');
    let release = () => {};
    worker.network.manifestGate = new Promise<void>((resolve) => (release = resolve));
    await worker.request('/talk', { mode: 'navigate' });
    await worker.request('/assets/index-new.js');
    await worker.request('/assets/ChatPage-2.js');
    release();
    await worker.idle();
    expect(worker.cached()).toEqual(
      expect.arrayContaining(['/assets/index-new.js', '/assets/ChatPage-2.js']),
    );
    worker.network.up = false;
    expect(await (await worker.request('/talk', { mode: 'navigate' }))!.text()).toContain('index-new.js');
    expect(await (await worker.request('/assets/index-new.js'))!.text()).toBe('body of /assets/index-new.js');
    // Once a node of the new build answers, the sync completes: its chunks in, the old build's out.
    worker.network.up = true;
    worker.network.manifestGate = null;
    worker.network.manifest = [
      '/assets/index-new.js',
      '/assets/index-def.css',
      '/assets/ChatPage-2.js',
      '/assets/Feed-2.js',
    ];
    await worker.request('/talk', { mode: 'navigate' });
    await worker.idle();
    expect(worker.cached()).toContain('/assets/Feed-2.js');
    expect(worker.cached()).not.toContain('/assets/ChatPage-1.js');
    expect(worker.cached()).not.toContain('/assets/index-abc.js');
  });

  it('never touches API calls, the socket, files, dev pages or writes', async () => {
    const worker = startWorker();
    await worker.lifecycle('install');
    for (const path of ['/api/conversations', '/ws', '/files/pair:a:b/x.png?exp=1&sig=2', '/dev/mailbox']) {
      expect(await worker.request(path)).toBeNull();
      expect(await worker.request(path, { mode: 'navigate' })).toBeNull();
    }
    expect(await worker.request('/assets/index-abc.js', { method: 'POST' })).toBeNull();
    expect(worker.cached().some((path) => /^\/(api|ws|files|dev)/.test(path))).toBe(false);
  });
});

describe('registering the worker', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('only in the production build, in a browser page served over http(s)', () => {
    Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
    expect(shouldRegisterServiceWorker(true, { protocol: 'https:' })).toBe(true);
    expect(shouldRegisterServiceWorker(true, { protocol: 'http:' })).toBe(true);
    expect(shouldRegisterServiceWorker(false, { protocol: 'https:' })).toBe(false);
    expect(shouldRegisterServiceWorker(true, { protocol: 'app:' })).toBe(false);
  });
});
