import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AppNotification } from '@campus/protocol';
import { writeNotificationRead } from '@campus/sync';
import { isApiError } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { useSync } from '../sync/sync-context';
import { cacheNotifications, readCachedNotifications } from './notification-store';
import { fetchNotifications, fetchUnreadCount } from './notifications-api';
import { useLiveRows } from '../../lib/useLiveRows';

export type PanelStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface NotificationsState {
  /** Newest first: the cached rows, with the panel's last fetch filling in what the cache lacks. */
  items: AppNotification[];
  unreadCount: number;
  status: PanelStatus;
  /** GET /api/notifications again (the panel calls it each time it opens). */
  refresh(): void;
  /** Marks read here, in the cache and on the server (a failure is only logged). */
  markRead(notification: AppNotification): void;
}

function mergeById(cached: readonly AppNotification[], fetched: readonly AppNotification[]) {
  const byId = new Map(fetched.map((n) => [n.id, n]));
  // The cache wins: it holds live changes and reads made after the fetch.
  for (const n of cached) byId.set(n.id, n);
  return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

const unreadOf = (list: readonly AppNotification[]) => list.filter((n) => !n.isRead).length;

/**
 * The bell's count and the panel's list. The list and count come from Dexie (the sync layer stores live
 * `notification_created` changes there); REST fills what the cache does not hold yet: the unread count
 * once on load, the list each time the panel opens (written back into Dexie for offline use).
 */
export function useNotifications(): NotificationsState {
  const api = useApi();
  const client = useSync();
  const db = client.db;
  const cached = useLiveRows(() => readCachedNotifications(db).catch(() => null), [db]);
  const [serverCount, setServerCount] = useState(0);
  const [fetched, setFetched] = useState<AppNotification[]>([]);
  /** Unread notifications the server has beyond its list (null until a list came this session). */
  const [beyondList, setBeyondList] = useState<number | null>(null);
  const [readHere, setReadHere] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState<PanelStatus>('idle');
  /** The last fetched list is stored in the cache: dropped once the live query shows all of it. */
  const [handedToCache, setHandedToCache] = useState(false);
  const request = useRef<AbortController | null>(null);
  const cachedCount = useRef(0);
  useEffect(() => {
    cachedCount.current = cached?.length ?? 0;
  }, [cached]);

  const loadList = useCallback(
    async (signal: AbortSignal) => {
      const list = await fetchNotifications(api, signal);
      const cachedAll = await cacheNotifications(db, list.notifications).then(
        () => true,
        (error: unknown) => {
          console.warn('Caching notifications failed', error);
          return false;
        },
      );
      if (signal.aborted) return;
      // Once in the cache, the cache alone lists them: a notification deleted later (its confession was
      // deleted) then leaves the panel too. The fetched list stands in until the live query has them (so
      // the list never flashes empty in between), and for good when caching failed.
      setFetched(list.notifications);
      setHandedToCache(cachedAll);
      setServerCount(list.unreadCount);
      setBeyondList(Math.max(0, list.unreadCount - unreadOf(list.notifications)));
    },
    [api, db],
  );

  const refresh = useCallback(() => {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setStatus('loading');
    loadList(controller.signal).then(
      () => {
        if (!controller.signal.aborted) setStatus('ready');
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // Offline with a cached list: the cache is the list. A server that answers badly is an error.
        const offline = isApiError(error) && error.kind === 'network' && cachedCount.current > 0;
        setStatus(offline ? 'ready' : 'error');
      },
    );
  }, [loadList]);

  // Once on load: the unread count. When the server knows more unread than the cache holds (a new device,
  // a long time offline), the list is loaded once too, so the cache becomes complete and live rows add up;
  // until one of these succeeds, the count is the larger of the server's and the cache's.
  useEffect(() => {
    const controller = new AbortController();
    Promise.all([fetchUnreadCount(api, controller.signal), readCachedNotifications(db).catch(() => [])])
      .then(([count, rows]) => {
        if (controller.signal.aborted) return;
        setServerCount(count);
        if (count > unreadOf(rows)) return loadList(controller.signal);
        // The cache holds every unread one: from now on it alone decides (reads on other devices included).
        setBeyondList((current) => current ?? 0);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [api, db, loadList]);

  useEffect(() => () => request.current?.abort(), []);

  // Adjusted while rendering (not in an effect): once the live query shows all of the handed list, the cache
  // alone lists them, before this render shows anything.
  if (handedToCache && cached && fetched.every((n) => cached.some((c) => c.id === n.id))) {
    setFetched([]);
    setHandedToCache(false);
  }

  const items = useMemo(() => {
    const merged = mergeById(cached ?? [], fetched);
    return readHere.size ? merged.map((n) => (readHere.has(n.id) ? { ...n, isRead: true } : n)) : merged;
  }, [cached, fetched, readHere]);

  let unreadCount: number;
  if (beyondList !== null) unreadCount = unreadOf(items) + beyondList;
  else if (cached?.length) unreadCount = Math.max(unreadOf(items), serverCount);
  else unreadCount = serverCount;

  const markRead = useCallback(
    (notification: AppNotification) => {
      setReadHere((current) => new Set(current).add(notification.id));
      if (!notification.isRead) setServerCount((count) => Math.max(0, count - 1));
      // The sync client queues the read in its outbox: delivered exactly once, offline too.
      client
        .run(writeNotificationRead, notification.id)
        .catch((error: unknown) => console.warn('Marking notification read failed', error));
    },
    [client],
  );

  return { items, unreadCount: Math.max(0, unreadCount), status, refresh, markRead };
}
