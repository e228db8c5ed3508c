import { useCallback, useEffect, useRef, useState } from 'react';
import { CONFESSION_MSG, CONFESSIONS, feedError, type Confession } from '@campus/protocol';
import type { SyncClient } from '@campus/sync';
import { isApiError, type ApiClient } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { useSync } from '../sync/sync-context';
import { NoAuthTokenError, fetchFeed } from './confessions-api';
import { cacheFeedPage, readCachedFeed, updateCachedConfession } from './feed-cache';
import { confessionWritesSent } from './queued-writes';

export type FeedTab = 'college' | 'all';

export interface FeedState {
  /** Which tab and college these rows belong to. */
  key: string;
  items: Confession[];
  /** Pages loaded so far (0 before the first answer). */
  page: number;
  hasMore: boolean;
  loading: boolean;
  /** 'Feed error {status}'. */
  error: string | null;
  /** The last fetch never reached the server; `hasMore` is kept, loading resumes once back online. */
  offline: boolean;
  /** The first page could not be fetched: these are the cached cards. */
  fromCache: boolean;
  total: number | null;
  collegeTotal: number | null;
}

const EMPTY: FeedState = {
  key: '',
  items: [],
  page: 0,
  hasMore: true,
  loading: true,
  error: null,
  offline: false,
  fromCache: false,
  total: null,
  collegeTotal: null,
};

type Update = (state: FeedState) => FeedState;

/** Loads one page and says how the state changes: the page, the cached feed when offline, or the error. */
async function nextState(input: {
  api: ApiClient;
  client: SyncClient;
  page: number;
  filter: string | null;
  key: string;
  allTab: boolean;
}): Promise<Update> {
  const { api, page, filter, key } = input;
  const { db } = input.client;
  try {
    const answer = await fetchFeed(api, page, filter);
    // The cache is a convenience: a failing IndexedDB must not break the online feed.
    void cacheFeedPage(input.client, page, answer.confessions, input.allTab).catch(() => undefined);
    return (s) => {
      const known = new Set(page === 1 ? [] : s.items.map((item) => item.id));
      const fresh = answer.confessions.filter((item) => !known.has(item.id));
      return {
        key,
        items: page === 1 ? fresh : [...s.items, ...fresh],
        page,
        // More pages exist while a page is full (the spec). A full page of cards already shown is not the
        // end: pages are offsets, and new posts push older cards onto later pages.
        hasMore: answer.confessions.length === CONFESSIONS.feedPageSize,
        loading: false,
        error: null,
        offline: false,
        fromCache: false,
        total: answer.total,
        collegeTotal: answer.collegeTotal,
      };
    };
  } catch (error) {
    if (isApiError(error) && error.kind === 'network') {
      // Not the end of the feed: more pages may well exist once the network is back.
      if (page > 1) return (s) => ({ ...s, loading: false, offline: true });
      const cached = await readCachedFeed(db, filter).catch(() => []);
      return () => ({
        ...EMPTY,
        key,
        items: cached,
        page: 1,
        hasMore: false,
        loading: false,
        offline: true,
        fromCache: true,
      });
    }
    const status = isApiError(error) ? error.status : 0;
    return (s) => ({
      ...(s.key === key ? s : { ...EMPTY, total: s.total, collegeTotal: s.collegeTotal }),
      key,
      loading: false,
      hasMore: false,
      error: error instanceof NoAuthTokenError ? CONFESSION_MSG.noAuthToken : feedError(status),
    });
  }
}

/**
 * One tab of the feed: pages of 10 (more while a page is full), written to the local cache as they arrive
 * and read back from it when the network is down.
 */
export function useFeed(tab: FeedTab, college: string | null) {
  const api = useApi();
  const client = useSync();
  const { db } = client;
  const [state, setState] = useState<FeedState>(EMPTY);
  const generation = useRef(0);
  const busy = useRef(false);
  const filter = tab === 'college' ? college : null;
  const key = `${tab}|${filter ?? ''}`;

  /** Fetches a page and stores the answer; the caller shows the loading state first (or the tab is new). */
  const fetchPage = useCallback(
    (page: number) => {
      const mine = generation.current;
      busy.current = true;
      return nextState({ api, client, page, filter, key, allTab: tab === 'all' })
        .then((update) => {
          if (mine === generation.current) setState(update);
        })
        .finally(() => {
          if (mine === generation.current) busy.current = false;
        });
    },
    [api, client, filter, tab, key],
  );

  const load = useCallback(
    (page: number) => {
      setState((s) =>
        s.key === key
          ? { ...s, loading: true, error: page === 1 ? null : s.error }
          : { ...EMPTY, key, total: s.total, collegeTotal: s.collegeTotal },
      );
      return fetchPage(page);
    },
    [fetchPage, key],
  );

  const reload = useCallback(() => {
    generation.current += 1;
    busy.current = false;
    return load(1);
  }, [load]);

  useEffect(() => {
    generation.current += 1;
    busy.current = false;
    // A new tab shows as EMPTY (loading) until its first page arrives: `current` below.
    void fetchPage(1);
    return () => {
      generation.current += 1;
    };
  }, [fetchPage]);

  const current =
    state.key === key ? state : { ...EMPTY, key, total: state.total, collegeTotal: state.collegeTotal };
  const { hasMore, page, offline, fromCache } = current;
  const loadMore = useCallback(() => {
    if (busy.current || !hasMore || page === 0) return Promise.resolve();
    return load(page + 1);
  }, [load, hasMore, page]);

  /**
   * After a network failure: the page that failed, or (for the cached feed) page 1 again once this
   * device's queued confession writes are delivered, so the fresh cards still show them.
   */
  const resume = useCallback(async () => {
    if (!fromCache) return loadMore();
    await confessionWritesSent(db);
    return reload();
  }, [db, fromCache, loadMore, reload]);

  useEffect(() => {
    if (!offline) return;
    const onOnline = () => void resume();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [offline, resume]);

  /** Replaces one card (an optimistic change or the server's answer) here and in the cache. */
  const patch = useCallback(
    (id: string, change: (item: Confession) => Confession) => {
      setState((s) => ({
        ...s,
        items: s.items.map((item) => {
          if (item.id !== id) return item;
          const next = change(item);
          void updateCachedConfession(db, next).catch(() => undefined);
          return next;
        }),
      }));
    },
    [db],
  );

  /** A deleted confession leaves the list and both tab counts it was part of. */
  const remove = useCallback(
    (id: string) => {
      setState((s) => {
        const gone = s.items.find((item) => item.id === id);
        if (!gone) return s;
        const inCollege = college !== null && gone.college === college;
        return {
          ...s,
          items: s.items.filter((item) => item.id !== id),
          total: s.total === null ? null : Math.max(0, s.total - 1),
          collegeTotal:
            s.collegeTotal === null || !inCollege ? s.collegeTotal : Math.max(0, s.collegeTotal - 1),
        };
      });
    },
    [college],
  );

  return { ...current, loadMore, reload, resume, patch, remove };
}
