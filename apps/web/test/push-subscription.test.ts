import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { subscribeToPush } from '../src/features/push/push-subscription';
import { urlBase64ToUint8Array } from '../src/features/push/url-base64';
import { usePushNotifications } from '../src/features/push/usePushNotifications';
import { createApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';

/** A P-256 public key as a server would hand it out (65 bytes, base64url without padding). */
const KEY_BYTES = Uint8Array.from({ length: 65 }, (_, i) => (i * 37 + 4) % 256);
const PUBLIC_KEY = btoa(String.fromCharCode(...KEY_BYTES))
  .replace(/\+/g, '-')
  .replace(/\//g, '_')
  .replace(/=+$/, '');

interface Posted {
  path: string;
  body: unknown;
  authorization: string | null;
}

function pushServer(publicKey = PUBLIC_KEY) {
  const posted: Posted[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = String(input);
      if (path === '/api/push/vapid-public-key') return Response.json({ publicKey });
      if (path === '/api/users/register-push-token' && init.method === 'POST') {
        posted.push({
          path,
          body: JSON.parse(String(init.body)) as unknown,
          authorization: new Headers(init.headers).get('Authorization'),
        });
        return new Response(null, { status: 204 });
      }
      return Response.json({ error: 'Not found' }, { status: 404 });
    }),
  );
  return posted;
}

/** A PushManager that remembers one subscription, as a browser does per registration. */
function fakeRegistration(existingKey?: Uint8Array) {
  const made = (key: Uint8Array, endpoint: string) => {
    const subscription = {
      endpoint,
      options: { applicationServerKey: key.slice().buffer, userVisibleOnly: true },
      unsubscribe: vi.fn(async () => {
        current = null;
        return true;
      }),
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'BPk-p256dh', auth: 'auth-secret' } }),
    };
    return subscription;
  };
  let current: ReturnType<typeof made> | null = existingKey
    ? made(existingKey, 'https://push.example/old')
    : null;
  const old = current;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array }) => {
      current = made(options.applicationServerKey, 'https://push.example/new');
      return current;
    }),
  };
  return { registration: { pushManager } as unknown as ServiceWorkerRegistration, pushManager, old };
}

const api = createApiClient({ baseUrl: '', getToken: () => 'token-u-alex' });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('urlBase64ToUint8Array', () => {
  it('decodes a base64url VAPID key without padding', () => {
    expect([...urlBase64ToUint8Array(PUBLIC_KEY)]).toEqual([...KEY_BYTES]);
    expect([...urlBase64ToUint8Array('-_8')]).toEqual([0xfb, 0xff]);
  });
});

describe('subscribing to web push', () => {
  it("subscribes with the server's VAPID key and registers the subscription", async () => {
    const posted = pushServer();
    const { registration, pushManager } = fakeRegistration();
    await subscribeToPush(api, registration);
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
    const options = pushManager.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect([...options.applicationServerKey]).toEqual([...KEY_BYTES]);
    expect(posted).toEqual([
      {
        path: '/api/users/register-push-token',
        body: {
          endpoint: 'https://push.example/new',
          expirationTime: null,
          keys: { p256dh: 'BPk-p256dh', auth: 'auth-secret' },
        },
        authorization: 'Bearer token-u-alex',
      },
    ]);
  });

  it('keeps a subscription made for the same key, and replaces one made for another key', async () => {
    const posted = pushServer();
    const same = fakeRegistration(KEY_BYTES);
    await subscribeToPush(api, same.registration);
    expect(same.pushManager.subscribe).not.toHaveBeenCalled();
    expect((posted[0]!.body as { endpoint: string }).endpoint).toBe('https://push.example/old');

    const other = fakeRegistration(Uint8Array.from({ length: 65 }, () => 9));
    await subscribeToPush(api, other.registration);
    expect(other.old!.unsubscribe).toHaveBeenCalled();
    expect(other.pushManager.subscribe).toHaveBeenCalledTimes(1);
    expect((posted[1]!.body as { endpoint: string }).endpoint).toBe('https://push.example/new');
  });
});

describe('usePushNotifications', () => {
  function setup(permission: NotificationPermission, answer: NotificationPermission = permission) {
    const posted = pushServer();
    const { registration, pushManager } = fakeRegistration();
    Object.defineProperty(navigator, 'serviceWorker', {
      value: { ready: Promise.resolve(registration) },
      configurable: true,
    });
    const requestPermission = vi.fn(async () => answer);
    vi.stubGlobal('Notification', { permission, requestPermission });
    const wrapper = ({ children }: { children: ReactNode }) => createElement(ApiProvider, { api, children });
    return { posted, pushManager, requestPermission, wrapper };
  }

  it('subscribes after sign-in when permission was already granted', async () => {
    const { posted, wrapper } = setup('granted');
    const { result } = renderHook(() => usePushNotifications(true), { wrapper });
    expect(result.current.canEnable).toBe(false);
    await waitFor(() => expect(posted).toHaveLength(1));
  });

  it("offers 'Enable notifications' and subscribes once the user allows it", async () => {
    const { posted, requestPermission, wrapper } = setup('default', 'granted');
    const { result } = renderHook(() => usePushNotifications(true), { wrapper });
    expect(result.current.canEnable).toBe(true);
    expect(posted).toHaveLength(0);
    act(() => result.current.enable());
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(result.current.canEnable).toBe(false);
  });

  it('does nothing when denied, or outside a production browser build', async () => {
    const denied = setup('denied');
    const { result } = renderHook(() => usePushNotifications(true), { wrapper: denied.wrapper });
    expect(result.current.canEnable).toBe(false);
    const notSupported = renderHook(() => usePushNotifications(false), { wrapper: denied.wrapper });
    expect(notSupported.result.current.canEnable).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(denied.posted).toHaveLength(0);
    expect(denied.pushManager.subscribe).not.toHaveBeenCalled();
  });
});

describe('signing out', () => {
  it('ends the push subscription before the worker goes, so a signed-out tab shows nobody’s notifications', async () => {
    const unsubscribe = vi.fn(async () => true);
    const unregister = vi.fn(async () => true);
    const registration = {
      pushManager: { getSubscription: vi.fn(async () => ({ unsubscribe })) },
      unregister,
    };
    vi.stubGlobal('navigator', {
      ...navigator,
      serviceWorker: { getRegistrations: vi.fn(async () => [registration]) },
    });
    const { clearLocalData } = await import('../src/features/session/cleanup');
    await clearLocalData(undefined);
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    expect(unregister).toHaveBeenCalledTimes(1);
  });
});
