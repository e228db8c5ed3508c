import { useCallback, useEffect, useRef, useState } from 'react';
import { ADMIN_MSG, type AdminDocumentItem } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { fetchDocuments, type AdminTab } from './admin-api';

export interface AdminList {
  /** The tab these rows belong to: until the new tab's first answer, its list is shown empty. */
  tab: AdminTab | null;
  items: AdminDocumentItem[];
  next: string | null;
  /** Per status, from the server's last answer (they cover every tab, whichever was asked). */
  counts: Record<string, number>;
  /** The first page is loading (the list is shown as skeletons when it is empty). */
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
}

const EMPTY: AdminList = {
  tab: null,
  items: [],
  next: null,
  counts: {},
  loading: true,
  loadingMore: false,
  error: null,
};

/** Whether an item still belongs on a tab once its status changed. */
function belongs(tab: AdminTab, item: AdminDocumentItem): boolean {
  return tab === 'all' || item.user.documentStatus === tab;
}

/** One tab's students, oldest first, paged by the server's keyset `next`. */
export function useAdminDocuments(tab: AdminTab) {
  const api = useApi();
  const [state, setList] = useState<AdminList>(EMPTY);
  const list: AdminList = state.tab === tab ? state : { ...EMPTY, tab, counts: state.counts };
  /** The answer of an earlier tab (or an earlier reload) must not land in this one. */
  const generation = useRef(0);

  /** The first page, answered into the list unless a newer load (or another tab) came since. */
  const loadFirst = useCallback(
    async (id: number) => {
      try {
        const page = await fetchDocuments(api, tab, null);
        if (id !== generation.current) return;
        setList({
          tab,
          items: page.users,
          next: page.next,
          counts: page.counts,
          loading: false,
          loadingMore: false,
          error: null,
        });
      } catch {
        if (id !== generation.current) return;
        setList((current) => ({ ...current, tab, loading: false, error: ADMIN_MSG.loadFailed }));
      }
    },
    [api, tab],
  );

  /** Loads the tab again (Retry, a decision the server did not describe, a 409), keeping the rows meanwhile. */
  const reload = useCallback(() => {
    const id = ++generation.current;
    setList((current) => ({ ...current, loading: true, error: null }));
    return loadFirst(id);
  }, [loadFirst]);

  // A new tab starts empty and loading (derived above), so nothing is set before its answer.
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
      const page = await fetchDocuments(api, tab, after);
      if (id !== generation.current) return;
      setList((current) => {
        const known = new Set(current.items.map((item) => item.user.id));
        const fresh = page.users.filter((item) => !known.has(item.user.id));
        return {
          ...current,
          items: [...current.items, ...fresh],
          next: page.next,
          counts: page.counts,
          loadingMore: false,
        };
      });
    } catch {
      if (id !== generation.current) return;
      setList((current) => ({ ...current, loadingMore: false, error: ADMIN_MSG.loadFailed }));
    }
  }, [api, tab, list.next, list.loadingMore]);

  /** A decision went through: the item as the server has it now, or a reload when it did not say. */
  const decided = useCallback(
    (before: AdminDocumentItem, after: AdminDocumentItem | null) => {
      if (!after) {
        void reload();
        return;
      }
      setList((current) => {
        const counts = { ...current.counts };
        const from = before.user.documentStatus;
        const to = after.user.documentStatus;
        if (from !== to) {
          counts[from] = Math.max(0, (counts[from] ?? 1) - 1);
          counts[to] = (counts[to] ?? 0) + 1;
        }
        const items = belongs(tab, after)
          ? current.items.map((item) => (item.user.id === after.user.id ? after : item))
          : current.items.filter((item) => item.user.id !== after.user.id);
        return { ...current, items, counts };
      });
    },
    [reload, tab],
  );

  return { list, reload, loadMore, decided };
}
