import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveRows } from '../../lib/useLiveRows';
import { CHAT } from '@campus/protocol';

interface Options<M> {
  /** The newest `limit` messages of this chat in the cache (live). */
  query: (limit: number) => Promise<M[]>;
  loadPage: (page: number) => Promise<number>;
  initialError: (error: unknown) => string;
  olderError: (error: unknown) => string;
}

/**
 * The spec's paging over the local cache: page 1 is fetched when the cache holds fewer than 30 messages,
 * 'load older' fetches the next page and shows 30 more. A page under 30 (or empty) means no more. A failed
 * refresh over a cache that already has messages stays silent, as the spec says.
 */
export function useHistoryPages<M>({ query, loadPage, initialError, olderError }: Options<M>) {
  const [limit, setLimit] = useState<number>(CHAT.pageSize);
  const messages = useLiveRows(() => query(limit), [query, limit]);
  const shown = messages?.length;
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(true);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (shown === undefined || started.current) return;
    started.current = true;
    if (shown >= CHAT.pageSize) return;
    loadPage(1).then(
      (count) => {
        if (count < CHAT.pageSize) setHasMore(false);
      },
      (failure: unknown) => {
        if (shown === 0) setError(initialError(failure));
      },
    );
  }, [shown, loadPage, initialError]);

  const loadOlder = useCallback(async () => {
    if (loadingOlder || !hasMore) return;
    setLoadingOlder(true);
    setError(null);
    try {
      const next = page + 1;
      const count = await loadPage(next);
      setPage(next);
      if (count < CHAT.pageSize) setHasMore(false);
      setLimit((current) => current + CHAT.pageSize);
    } catch (failure) {
      setError(olderError(failure));
    } finally {
      setLoadingOlder(false);
    }
  }, [hasMore, loadPage, loadingOlder, olderError, page]);

  const canLoadOlder = hasMore && (shown ?? 0) >= CHAT.pageSize;
  return { messages, canLoadOlder, loadingOlder, loadOlder, error };
}

/**
 * The sync client already rejects with the spec's text for the case ('Failed to fetch …' when the server
 * refused, 'Error loading …' when the request never completed); anything else gets `fallback`.
 */
export function historyFailureText(known: readonly string[], fallback: string) {
  return (error: unknown): string =>
    error instanceof Error && known.includes(error.message) ? error.message : fallback;
}
