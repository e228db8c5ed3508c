import { useCallback } from 'react';
import { ADMIN_MSG, type AdminDocumentItem } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { fetchDocuments, type AdminTab } from './admin-api';
import { usePagedList } from './usePagedList';

/** Whether an item still belongs on a tab once its status changed. */
function belongs(tab: AdminTab, item: AdminDocumentItem): boolean {
  return tab === 'all' || item.user.documentStatus === tab;
}

/** One tab's students, oldest first, paged by the server's keyset `next`; `counts` per status. */
export function useAdminDocuments(tab: AdminTab) {
  const api = useApi();
  const { list, reload, loadMore, update } = usePagedList<AdminDocumentItem, Record<string, number>>({
    key: tab,
    fetchPage: async (after) => {
      const page = await fetchDocuments(api, tab, after);
      return { items: page.users, next: page.next, extra: page.counts };
    },
    idOf: (item) => item.user.id,
    initialExtra: {},
    failed: ADMIN_MSG.loadFailed,
  });

  /** A decision went through: the item as the server has it now, or a reload when it did not say. */
  const decided = useCallback(
    (before: AdminDocumentItem, after: AdminDocumentItem | null) => {
      if (!after) {
        void reload();
        return;
      }
      update((current) => {
        const counts = { ...current.extra };
        const from = before.user.documentStatus;
        const to = after.user.documentStatus;
        if (from !== to) {
          counts[from] = Math.max(0, (counts[from] ?? 1) - 1);
          counts[to] = (counts[to] ?? 0) + 1;
        }
        const items = belongs(tab, after)
          ? current.items.map((item) => (item.user.id === after.user.id ? after : item))
          : current.items.filter((item) => item.user.id !== after.user.id);
        return { items, extra: counts };
      });
    },
    [reload, tab, update],
  );

  return { list: { ...list, counts: list.extra }, reload, loadMore, decided };
}
