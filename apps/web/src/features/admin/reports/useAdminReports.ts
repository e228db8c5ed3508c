import { useCallback } from 'react';
import { REPORT_MSG, type AdminReportItem, type ReportStatus } from '@campus/protocol';
import { useApi } from '../../../lib/ApiContext';
import { usePagedList } from '../usePagedList';
import { fetchReports } from './reports-api';

type Counts = Record<ReportStatus, number> | null;

/** One tab's reports, paged by the server's keyset `next`, with the counts of every tab. */
export function useAdminReports(tab: ReportStatus) {
  const api = useApi();
  const { list, reload, loadMore, update } = usePagedList<AdminReportItem, Counts>({
    key: tab,
    fetchPage: async (before) => {
      const page = await fetchReports(api, tab, before);
      return { items: page.reports, next: page.next, extra: page.counts };
    },
    idOf: (item) => item.id,
    initialExtra: null,
    failed: REPORT_MSG.loadFailed,
  });

  /** A report as the server has it now: it leaves a tab it no longer belongs to, and the counts follow. */
  const replaced = useCallback(
    (before: AdminReportItem, after: AdminReportItem) =>
      update((current) => {
        const counts = current.extra ? { ...current.extra } : null;
        if (counts && before.status !== after.status) {
          counts[before.status] = Math.max(0, counts[before.status] - 1);
          counts[after.status] += 1;
        }
        const items =
          after.status === tab
            ? current.items.map((item) => (item.id === after.id ? after : item))
            : current.items.filter((item) => item.id !== after.id);
        return { items, extra: counts };
      }),
    [tab, update],
  );

  /** A hold was cleared: every report about that user shows it. */
  const holdCleared = useCallback(
    (userId: string) =>
      update((current) => ({
        items: current.items.map((item) =>
          item.reported.id === userId
            ? { ...item, reportedRestriction: { ...item.reportedRestriction, randomReviewHold: false } }
            : item,
        ),
        extra: current.extra,
      })),
    [update],
  );

  return { list: { ...list, counts: list.extra }, reload, loadMore, replaced, holdCleared };
}
