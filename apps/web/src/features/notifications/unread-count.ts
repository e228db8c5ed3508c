import { useEffect, useState } from 'react';
import type { ResponseSchema } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';

/** GET /api/notifications/unread-count → { unreadCount }. Local until the protocol package carries it. */
export const unreadCountResponse: ResponseSchema<{ unreadCount: number }> = {
  parse(data: unknown) {
    const value = (data as { unreadCount?: unknown } | null)?.unreadCount;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error('Invalid unread count.');
    return { unreadCount: Math.max(0, Math.floor(value)) };
  },
};

/** Fetched once when the shell loads; any failure reads as nothing unread. */
export function useUnreadCount(): number {
  const api = useApi();
  const [count, setCount] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    api.get('/api/notifications/unread-count', unreadCountResponse, { signal: controller.signal }).then(
      ({ unreadCount }) => setCount(unreadCount),
      () => setCount(0),
    );
    return () => controller.abort();
  }, [api]);
  return count;
}
