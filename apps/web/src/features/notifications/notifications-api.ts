import {
  notificationsResponseSchema,
  unreadCountResponseSchema,
  type AppNotification,
} from '@campus/protocol';
import type { ApiClient } from '../../lib/api';

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
