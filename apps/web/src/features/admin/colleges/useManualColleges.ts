import { useCallback } from 'react';
import { COLLEGE_ADMIN_MSG, type ManualCollegeItem } from '@campus/protocol';
import { useApi } from '../../../lib/ApiContext';
import { usePagedList } from '../usePagedList';
import { fetchManualColleges } from './colleges-api';

/** The manual colleges, oldest first, paged by the server's keyset `next`; `total` is how many wait. */
export function useManualColleges() {
  const api = useApi();
  const { list, reload, loadMore, update } = usePagedList<ManualCollegeItem, number>({
    key: 'manual',
    fetchPage: async (after) => {
      const page = await fetchManualColleges(api, after);
      return { items: page.colleges, next: page.next, extra: page.total };
    },
    idOf: (item) => item.id,
    initialExtra: 0,
    failed: COLLEGE_ADMIN_MSG.loadFailed,
  });

  /** Approved or merged: it leaves the list. */
  const removed = useCallback(
    (collegeId: string) =>
      update((current) => {
        const items = current.items.filter((item) => item.id !== collegeId);
        return { items, extra: Math.max(0, current.extra - (current.items.length - items.length)) };
      }),
    [update],
  );

  return { list: { ...list, total: list.extra }, reload, loadMore, removed };
}
