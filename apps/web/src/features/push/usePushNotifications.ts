import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../../lib/ApiContext';
import { shouldRegisterServiceWorker } from '../offline/service-worker';
import { subscribeToPush } from './push-subscription';

type Permission = NotificationPermission | 'unsupported';

function currentPermission(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export interface PushNotifications {
  /** The browser can still ask: the panel offers 'Enable notifications'. */
  canEnable: boolean;
  enable(): void;
}

/**
 * Web push, like the service worker: a production build in a browser only (the desktop app shows native
 * notifications itself). Once signed in and permission is granted (already, or after 'Enable notifications'),
 * this browser subscribes through the active worker and the server stores the subscription.
 */
export function usePushNotifications(supported: boolean = pushSupported()): PushNotifications {
  const api = useApi();
  const [permission, setPermission] = useState<Permission>(currentPermission);

  useEffect(() => {
    if (!supported || permission !== 'granted') return;
    let cancelled = false;
    navigator.serviceWorker.ready
      .then((registration) => (cancelled ? undefined : subscribeToPush(api, registration)))
      .catch((error: unknown) => console.warn('Web push subscription failed', error));
    return () => {
      cancelled = true;
    };
  }, [api, supported, permission]);

  const enable = useCallback(() => {
    if (typeof Notification === 'undefined') return;
    Notification.requestPermission().then(setPermission, (error: unknown) =>
      console.warn('Notification permission request failed', error),
    );
  }, []);

  return { canEnable: supported && permission === 'default', enable };
}

function pushSupported(): boolean {
  return (
    shouldRegisterServiceWorker() &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    typeof Notification !== 'undefined'
  );
}
