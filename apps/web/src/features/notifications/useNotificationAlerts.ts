import { useEffect, useRef } from 'react';
import { notificationUrl, type AppNotification } from '@campus/protocol';
import { usePlatform } from '../../platform';

/** Device clocks drift from the server's; a notification this much older than the start still counts as new. */
const CLOCK_SKEW_MS = 60_000;
/** When this page loaded the app: what was created before is the backlog. */
const APP_STARTED_AT = Date.now();

/**
 * While the app is open but its window is not focused, a new notification is shown by the platform (a
 * native one on the desktop, the Notification API in a browser). Only notifications that arrive after the
 * app started: the rows already cached, and the backlog a first load brings, stay silent.
 */
export function useNotificationAlerts(items: readonly AppNotification[]): void {
  const platform = usePlatform();
  const seen = useRef<Set<string> | null>(null);

  useEffect(() => {
    if (seen.current === null) {
      seen.current = new Set(items.map((n) => n.id));
      return;
    }
    for (const notification of items) {
      if (seen.current.has(notification.id)) continue;
      seen.current.add(notification.id);
      const created = Date.parse(notification.createdAt);
      if (notification.isRead || !(created >= APP_STARTED_AT - CLOCK_SKEW_MS)) continue;
      if (document.hasFocus()) continue;
      platform
        .notify({
          title: notification.title.slice(0, 200),
          body: notification.body.slice(0, 1000),
          route: notificationUrl(notification),
        })
        .catch((error: unknown) => console.warn('Showing a notification failed', error));
    }
  }, [items, platform]);
}
