import type { ReportStatus } from '@campus/protocol';
import { StatusTabs } from '../StatusTabs';
import { REPORT_TABS } from './reports-api';

export const reportTabId = (status: ReportStatus) => `report-tab-${status}`;

/** Open / Upheld / Dismissed with their counts (none until the first page brings them). */
export function ReportTabs({
  tab,
  counts,
  panelId,
  onTab,
}: {
  tab: ReportStatus;
  counts: Record<ReportStatus, number> | null;
  panelId: string;
  onTab(tab: ReportStatus): void;
}) {
  return (
    <StatusTabs
      tabs={REPORT_TABS}
      tab={tab}
      label="Report status"
      tabId={reportTabId}
      countOf={(status) => (counts ? counts[status] : null)}
      panelId={panelId}
      onTab={onTab}
    />
  );
}
