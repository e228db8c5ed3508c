import { useCallback, useEffect, useRef, useState } from 'react';
import { COLLEGE_ADMIN_MSG, type ManualCollegeItem } from '@campus/protocol';
import { useApi } from '../../../lib/ApiContext';
import { fetchManualColleges } from './colleges-api';

export interface ManualCollegeList {
  items: ManualCollegeItem[];
  next: string | null;
  /** Waiting in all, from the server's last answer. */
  total: number;
  /** The first page is loading. */
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
}

const START: ManualCollegeList = {
  items: [],
  next: null,
  total: 0,
  loading: true,
  loadingMore: false,
  error: null,
};

/** The manual colleges, oldest first, paged by the server's keyset `next`. */
export function useManualColleges() {
  const api = useApi();
  const [list, setList] = useState<ManualCollegeList>(START);
  /** An earlier load's answer must not land after a newer one (Retry, a reload after a refusal). */
  const generation = useRef(0);

  const loadFirst = useCallback(
    async (id: number) => {
      try {
        const page = await fetchManualColleges(api, null);
        if (id !== generation.current) return;
        setList({ ...START, items: page.colleges, next: page.next, total: page.total, loading: false });
      } catch {
        if (id !== generation.current) return;
        setList((current) => ({ ...current, loading: false, error: COLLEGE_ADMIN_MSG.loadFailed }));
      }
    },
    [api],
  );

  /** Loads the first page again, keeping the rows meanwhile. */
  const reload = useCallback(() => {
    const id = ++generation.current;
    setList((current) => ({ ...current, loading: true, error: null }));
    return loadFirst(id);
  }, [loadFirst]);

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
      const page = await fetchManualColleges(api, after);
      if (id !== generation.current) return;
      setList((current) => {
        const known = new Set(current.items.map((item) => item.id));
        return {
          ...current,
          items: [...current.items, ...page.colleges.filter((item) => !known.has(item.id))],
          next: page.next,
          total: page.total,
          loadingMore: false,
        };
      });
    } catch {
      if (id !== generation.current) return;
      setList((current) => ({ ...current, loadingMore: false, error: COLLEGE_ADMIN_MSG.loadFailed }));
    }
  }, [api, list.next, list.loadingMore]);

  /** Approved or merged: it leaves the list. */
  const removed = useCallback((collegeId: string) => {
    setList((current) => {
      const items = current.items.filter((item) => item.id !== collegeId);
      const total = Math.max(0, current.total - (current.items.length - items.length));
      return { ...current, items, total };
    });
  }, []);

  return { list, reload, loadMore, removed };
}
