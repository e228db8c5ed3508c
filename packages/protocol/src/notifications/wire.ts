import { z } from 'zod';
import type { AppNotification } from '../confessions/entities';

/** `GET /api/notifications?page&limit`: newest first. */
export const NOTIFICATIONS_PAGE_SIZE = 50;
export const notificationsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(NOTIFICATIONS_PAGE_SIZE),
});

/**
 * What a web push carries to the service worker (encrypted by the push protocol): the system
 * notification's text and the app route its click opens.
 */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** An app route, e.g. '/confessions?confessionId=…' or '/talk?friendRequests=1'. */
  url: z.string().startsWith('/'),
  /** The notification's type and id: the worker tags by id so a repeat replaces, not stacks. */
  type: z.string(),
  notificationId: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/** The route a notification opens: its confession on Confessions, or Talk with the friend-requests modal. */
export function notificationUrl(notification: Pick<AppNotification, 'type' | 'data'>): string {
  if (notification.type === 'friend_request') return '/talk?friendRequests=1';
  if (notification.type === 'document_verified') return '/profile';
  if (notification.type === 'document_rejected') return '/upload-document';
  if (notification.type === 'moderation_notice') return '/talk';
  const id = notification.data.confessionId;
  return id ? `/confessions?confessionId=${encodeURIComponent(id)}` : '/confessions';
}
