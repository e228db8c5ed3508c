import { CONFESSION_MSG, notificationsResponseSchema } from '@campus/protocol';
import { storeNotificationList } from './confession-cache';
import type { HistoryContext } from './history';

/**
 * `GET /api/notifications` (the panel fetches it each time it opens), stored into Dexie. Resolves with the
 * unread count as this device sees it; rejects with the spec's 'Failed to load notifications'.
 */
export async function loadNotifications(ctx: HistoryContext): Promise<number> {
  const failed = new Error(CONFESSION_MSG.notificationsFailed);
  let body: unknown;
  try {
    const res = await ctx.fetchImpl(`${ctx.baseUrl}/api/notifications`, {
      headers: { Authorization: `Bearer ${ctx.token}` },
    });
    if (!res.ok) throw failed;
    body = await res.json();
  } catch {
    throw failed;
  }
  const parsed = notificationsResponseSchema.safeParse(body);
  if (!parsed.success) throw failed;
  return storeNotificationList(ctx.db, parsed.data.notifications, parsed.data.unreadCount);
}
