import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLiveRows } from '../../lib/useLiveRows';
import { CONFESSION_MSG, CONFESSIONS, feedError, type FeedResponse } from '@campus/protocol';
import type { LocalConfession, SyncClient } from '@campus/sync';
import { isApiError, type ApiClient } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { useSync } from '../sync/sync-context';
import { NoAuthTokenError, fetchFeed } from './confessions-api';
import { cacheFeedPage, readCachedFeed, tabRows } from './feed-cache';
import { useFeedTotals } from './useFeedTotals';

export type FeedTab = 'college' | 'all';

/** Where the REST paging of one tab stands; the cards themselves come from the cache. */
interface Paging {
  /** Which tab and college this paging belongs to. */
  key: string;
  /** Pages loaded so far (0 before the first answer). */
  page: number;
  hasMore: boolean;
  loading: boolean;
  /** 'Feed error {status}'. */
  error: string | null;
  /** The last fetch never reached the server; `hasMore` is kept, loading resumes once back online. */
  offline: boolean;
  /** The first page could not be fetched: the cards are what the cache had. */
  fromCache: boolean;
}

const START: Omit<Paging, 'key'> = {
  page: 0,
  hasMore: true,
  loading: true,
  error: null,
  offline: false,
  fromCache: false,
};

type Update = (state: Paging) => Paging;

interface PageRequest {
  api: ApiClient;
  client: SyncClient;
  page: number;
  filter: string | null;
  key: string;
  onAnswer(answer: FeedResponse): void;
  removed: Set<string>;
}

/** Loads one page into the cache and says how the paging moves: on, offline, or the error. */
async function loadPage(request: PageRequest): Promise<Update> {
  const { page, key } = request;
  try {
    const answer = await fetchFeed(request.api, page, request.filter);
    request.onAnswer(answer);
    // Awaited, so the cards are on screen when loading ends; a failing IndexedDB only loses them.
    await cacheFeedPage(request.client, page, answer.confessions, request.filter, request.removed).catch(
      () => undefined,
    );
    return () => ({
      ...START,
      key,
      page,
      // More pages exist while a page is full (the spec). A full page of cards already shown is not the
      // end: pages are offsets, and new posts push older cards onto later pages.
      hasMore: answer.confessions.length === CONFESSIONS.feedPageSize,
      loading: false,
    });
  } catch (error) {
    if (isApiError(error) && error.kind === 'network') {
      // Not the end of the feed: more pages may well exist once the network is back.
      if (page > 1) return (s) => ({ ...s, loading: false, offline: true });
      return () => ({
        ...START,
        key,
        page: 1,
        hasMore: false,
        loading: false,
        offline: true,
        fromCache: true,
      });
    }
    const status = isApiError(error) ? error.status : 0;
    return (s) => ({
      ...(s.key === key ? s : { ...START, key }),
      loading: false,
      hasMore: false,
      error: error instanceof NoAuthTokenError ? CONFESSION_MSG.noAuthToken : feedError(status),
    });
  }
}

/**
 * One tab of the feed, cache first: the cards are a live query over the local confessions table (so posts,
 * deletions and counts from anyone show as the sync client applies them), and REST pages of 10 (more while a
 * page is full) only load into that cache. Offline, the cache is what shows.
 */
export function useFeed(tab: FeedTab, college: string | null) {
  const api = useApi();
  const client = useSync();
  const { db } = client;
  const rows = useLiveRows(() => readCachedFeed(db).catch((): LocalConfession[] => []), [db]);
  const totals = useFeedTotals(rows, college);
  const { onAnswer, reconciled } = totals;
  const [paging, setPaging] = useState<Paging>({ key: '', ...START });
  const generation = useRef(0);
  const busy = useRef(false);
  const filter = tab === 'college' ? college : null;
  const key = `${tab}|${filter ?? ''}`;

  /** Fetches a page and stores the answer; the caller shows the loading state first (or the tab is new). */
  const fetchPage = useCallback(
    (page: number) => {
      const mine = generation.current;
      busy.current = true;
      // loadPage never rejects. Not busy before the state moves on: the render it causes may load more.
      return loadPage({ api, client, page, filter, key, onAnswer, removed: reconciled }).then((update) => {
        if (mine !== generation.current) return;
        busy.current = false;
        setPaging(update);
      });
    },
    [api, client, filter, key, onAnswer, reconciled],
  );

  const load = useCallback(
    (page: number) => {
      setPaging((s) =>
        s.key === key ? { ...s, loading: true, error: page === 1 ? null : s.error } : { ...START, key },
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
    // A new tab shows as loading (`current` below) until its first page arrives.
    void fetchPage(1);
    return () => {
      generation.current += 1;
    };
  }, [fetchPage]);

  const current = paging.key === key ? paging : { ...START, key };
  const { hasMore, page, offline, fromCache } = current;
  const loadMore = useCallback(() => {
    if (busy.current || !hasMore || page === 0) return Promise.resolve();
    return load(page + 1);
  }, [load, hasMore, page]);

  /**
   * After a network failure: the page that failed, or page 1 again for the cached feed. This device's queued
   * writes stay on the cards: the sync client keeps them on top of what a page brings.
   */
  const resume = useCallback(() => (fromCache ? reload() : loadMore()), [fromCache, loadMore, reload]);

  useEffect(() => {
    if (!offline) return;
    const onOnline = () => void resume();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [offline, resume]);

  const items = useMemo(() => tabRows(rows ?? [], filter), [rows, filter]);
  return {
    ...current,
    // Until the cache has answered, the feed counts as loading (no empty state flashes).
    loading: current.loading || rows === undefined,
    items,
    total: totals.total,
    collegeTotal: totals.collegeTotal,
    loadMore,
    reload,
    resume,
  };
}

export type Feed = ReturnType<typeof useFeed>;
