import {
  notificationsResponseSchema,
  unreadCountResponseSchema,
  type AppNotification,
} from '@campus/protocol';
import type { ApiClient } from '../../lib/api';
import { readSession } from '../../lib/session-storage';

export interface NotificationList {
  notifications: AppNotification[];
  unreadCount: number;
}

/** `GET /api/notifications`: fetched each time the panel opens. Rejects on a non-OK answer or invalid body. */
export function fetchNotifications(api: ApiClient, signal?: AbortSignal): Promise<NotificationList> {
  return api.get('/api/notifications', notificationsResponseSchema, { signal });
}

/** `GET /api/notifications/unread-count`: fetched once when the shell loads. */
export async function fetchUnreadCount(api: ApiClient, signal?: AbortSignal): Promise<number> {
  const { unreadCount } = await api.get('/api/notifications/unread-count', unreadCountResponseSchema, {
    signal,
  });
  return unreadCount;
}

/**
 * `PUT /api/notifications/{id}/read`. The shared ApiClient has no PUT, and the answer is not shown, so this
 * is a plain fetch with the session's bearer token. A failure is only logged (spec section 4).
 */
export async function markReadOnServer(baseUrl: string, notificationId: string): Promise<void> {
  const token = readSession()?.token;
  try {
    const response = await fetch(`${baseUrl}/api/notifications/${encodeURIComponent(notificationId)}/read`, {
      method: 'PUT',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    if (!response.ok) console.warn(`Marking notification read failed (${response.status})`);
  } catch (error) {
    console.warn('Marking notification read failed', error);
  }
}
