import { useCallback, useEffect, useRef, useState } from 'react';

/** One page of a keyset-paged list, and what else its answer carries (counts, a total). */
export interface Page<T, X> {
  items: T[];
  next: string | null;
  extra: X;
}

export interface PagedList<T, X> {
  /** Which list these rows belong to (a tab): until a new key's first answer, its list is shown empty. */
  key: string;
  items: T[];
  next: string | null;
  extra: X;
  /** The first page is loading (shown as skeletons while the list is empty). */
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
}

interface Options<T, X> {
  key: string;
  fetchPage(after: string | null): Promise<Page<T, X>>;
  idOf(item: T): string;
  /** The first list's `extra`; a new key keeps the last one until its answer (counts cover every tab). */
  initialExtra: X;
  /** The text of a failed load. */
  failed: string;
}

/**
 * A list the server pages by a keyset `next` (the admin review's tabs, the manual colleges): the first page
 * per key, Load more without duplicates, a reload keeping the rows meanwhile, and no answer of an earlier
 * key or load landing after a newer one.
 */
export function usePagedList<T, X>(options: Options<T, X>) {
  const { key } = options;
  const latest = useRef(options);
  // The newest options for the loads below (declared first, so it runs before the first load).
  useEffect(() => {
    latest.current = options;
  });
  const start = (extra: X): PagedList<T, X> => ({
    key,
    items: [],
    next: null,
    extra,
    loading: true,
    loadingMore: false,
    error: null,
  });
  const [state, setList] = useState<PagedList<T, X>>(() => start(options.initialExtra));
  const list = state.key === key ? state : start(state.extra);
  const generation = useRef(0);

  const loadFirst = useCallback(
    async (id: number) => {
      try {
        const page = await latest.current.fetchPage(null);
        if (id !== generation.current) return;
        setList({ key, ...page, loading: false, loadingMore: false, error: null });
      } catch {
        if (id !== generation.current) return;
        setList((current) => ({ ...current, key, loading: false, error: latest.current.failed }));
      }
    },
    [key],
  );

  /** Loads the first page again (Retry, a change the server did not describe), keeping the rows meanwhile. */
  const reload = useCallback(() => {
    const id = ++generation.current;
    setList((current) => ({ ...current, loading: true, error: null }));
    return loadFirst(id);
  }, [loadFirst]);

  // A new key starts empty and loading (derived above), so nothing is set before its answer.
  useEffect(() => {
    void loadFirst(++generation.current);
    return () => {
      generation.current += 1;
    };
  }, [loadFirst]);

  const loadMore = useCallback(async () => {
    const after = list.next;
    if (!after || list.loadingMore) return;
    const id = generation.current;
    setList((current) => ({ ...current, loadingMore: true, error: null }));
    try {
      const page = await latest.current.fetchPage(after);
      if (id !== generation.current) return;
      setList((current) => {
        const { idOf } = latest.current;
        const known = new Set(current.items.map(idOf));
        return {
          ...current,
          items: [...current.items, ...page.items.filter((item) => !known.has(idOf(item)))],
          next: page.next,
          extra: page.extra,
          loadingMore: false,
        };
      });
    } catch {
      if (id !== generation.current) return;
      setList((current) => ({ ...current, loadingMore: false, error: latest.current.failed }));
    }
  }, [list.next, list.loadingMore]);

  /** A local change the server already made (an item decided, removed): applied to the rows shown. */
  const update = useCallback(
    (change: (current: PagedList<T, X>) => Pick<PagedList<T, X>, 'items' | 'extra'>) =>
      setList((current) => ({ ...current, ...change(current) })),
    [],
  );

  return { list, reload, loadMore, update };
}
