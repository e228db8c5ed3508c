import { describe, expect, it, vi } from 'vitest';
import source from '../public/sw.js?raw';

const ORIGIN = 'https://campus.test';
type Listener = (event: Record<string, unknown>) => void;

interface FakeWindow {
  url: string;
  focused: boolean;
  focus: ReturnType<typeof vi.fn>;
  postMessage: ReturnType<typeof vi.fn>;
}

function windowClient(url: string, focused = false): FakeWindow {
  const client: FakeWindow = {
    url,
    focused,
    focus: vi.fn(async () => client),
    postMessage: vi.fn(),
  };
  return client;
}

/** Runs public/sw.js with a fake registration and clients; only the push handlers are exercised here. */
function startWorker(windows: FakeWindow[] = []) {
  const listeners = new Map<string, Listener>();
  const showNotification = vi.fn(async () => undefined);
  const openWindow = vi.fn(async () => null);
  const matchAll = vi.fn(async () => windows);
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: async () => undefined,
    registration: { showNotification },
    clients: { claim: async () => undefined, matchAll, openWindow },
  };
  new Function('self', 'caches', 'fetch', source)(self, {}, vi.fn());

  async function dispatch(type: string, event: Record<string, unknown>) {
    let work: Promise<unknown> = Promise.resolve();
    listeners.get(type)!({ ...event, waitUntil: (promise: Promise<unknown>) => (work = promise) });
    await work;
  }
  const push = (payload: unknown) =>
    dispatch('push', {
      data: {
        json: () => JSON.parse(JSON.stringify(payload)) as unknown,
        text: () => JSON.stringify(payload),
      },
    });
  const click = (url: unknown) => {
    const notification = { data: { url }, close: vi.fn() };
    return { notification, done: dispatch('notificationclick', { notification }) };
  };
  return { showNotification, openWindow, matchAll, push, click };
}

describe('the service worker and web push', () => {
  it('shows a push as a system notification tagged by its id, carrying its url', async () => {
    const worker = startWorker();
    await worker.push({
      title: 'New comment',
      body: 'Someone commented on your confession',
      url: '/confessions?confessionId=c-1',
      type: 'confession_comment',
      notificationId: 'n-1',
    });
    expect(worker.showNotification).toHaveBeenCalledWith('New comment', {
      body: 'Someone commented on your confession',
      icon: '/favicon.svg',
      tag: 'n-1',
      data: { url: '/confessions?confessionId=c-1' },
    });
  });

  it('never carries another origin: such a url opens the app root', async () => {
    const worker = startWorker();
    await worker.push({
      title: 'x',
      body: 'y',
      url: 'https://evil.example/',
      type: 't',
      notificationId: 'n',
    });
    expect(worker.showNotification).toHaveBeenCalledWith(
      'x',
      expect.objectContaining({ data: { url: '/' } }),
    );
    await worker.push({ title: 'x', body: 'y', url: '//evil.example/', type: 't', notificationId: 'n' });
    expect(worker.showNotification).toHaveBeenLastCalledWith(
      'x',
      expect.objectContaining({ data: { url: '/' } }),
    );
  });

  it('a click focuses an open window of the app and asks it to navigate there', async () => {
    const other = windowClient('https://elsewhere.test/');
    const app = windowClient(`${ORIGIN}/talk`);
    const worker = startWorker([other, app]);
    const { notification, done } = worker.click('/confessions?confessionId=c-9');
    await done;
    expect(notification.close).toHaveBeenCalled();
    expect(app.focus).toHaveBeenCalled();
    expect(app.postMessage).toHaveBeenCalledWith({
      type: 'navigate',
      route: '/confessions?confessionId=c-9',
    });
    expect(other.postMessage).not.toHaveBeenCalled();
    expect(worker.openWindow).not.toHaveBeenCalled();
  });

  it('a friend-request click asks the open app for the friend-requests modal', async () => {
    const app = windowClient(`${ORIGIN}/confessions`);
    const worker = startWorker([app]);
    await worker.click('/talk?friendRequests=1').done;
    expect(app.postMessage).toHaveBeenCalledWith({ type: 'navigate', route: '/talk?friendRequests=1' });
  });

  it('opens a new window at the url when no window of the app is open', async () => {
    const worker = startWorker([windowClient('https://elsewhere.test/')]);
    await worker.click('/confessions?confessionId=c-2').done;
    expect(worker.openWindow).toHaveBeenCalledWith('/confessions?confessionId=c-2');
  });
});
