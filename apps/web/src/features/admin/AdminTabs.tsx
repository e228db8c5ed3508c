import { ADMIN_TABS, type AdminTab } from './admin-api';
import { StatusTabs } from './StatusTabs';

interface Props {
  tab: AdminTab;
  counts: Record<string, number>;
  panelId: string;
  onTab(tab: AdminTab): void;
}

/** The server counts each document status; 'All' is their sum (none until the first counts arrive). */
function countOf(status: AdminTab, counts: Record<string, number>): number | null {
  if (status in counts) return counts[status] ?? 0;
  if (status !== 'all') return null;
  const values = Object.values(counts);
  return values.length ? values.reduce((sum, n) => sum + n, 0) : null;
}

export function tabId(status: AdminTab): string {
  return `admin-tab-${status}`;
}

/** The document statuses as tabs with their counts. */
export function AdminTabs({ tab, counts, panelId, onTab }: Props) {
  return (
    <StatusTabs
      tabs={ADMIN_TABS}
      tab={tab}
      label="Document status"
      tabId={tabId}
      countOf={(status) => countOf(status, counts)}
      panelId={panelId}
      onTab={onTab}
    />
  );
}
