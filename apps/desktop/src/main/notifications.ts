import type { PlatformNotification } from '@campus/protocol';
import { Notification } from 'electron';

export interface NotificationTarget {
  /** Whether the user is looking at the app right now. */
  isFocused(): boolean;
  /** Brings the app forward and opens `route` when there is one. */
  open(route: string | undefined): void;
}

/**
 * Electron drops a Notification's click handler once the object is garbage-collected, so shown ones are
 * held here until they are clicked or closed.
 */
const live = new Set<Notification>();

/**
 * Shows a system notification unless the app already has focus: there the UI shows the event itself and
 * a system toast would only repeat it. Returns whether one was shown.
 */
export function showNotification(target: NotificationTarget, notification: PlatformNotification): boolean {
  if (target.isFocused() || !Notification.isSupported()) return false;
  const shown = new Notification({ title: notification.title, body: notification.body });
  const release = () => live.delete(shown);
  shown.on('click', () => {
    release();
    target.open(notification.route);
  });
  shown.on('close', release);
  live.add(shown);
  shown.show();
  return true;
}
