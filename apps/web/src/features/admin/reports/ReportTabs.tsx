import { useRef, type KeyboardEvent } from 'react';
import type { ReportStatus } from '@campus/protocol';
import { REPORT_TABS } from './reports-api';

export const reportTabId = (status: ReportStatus) => `report-tab-${status}`;

/** Open / Upheld / Dismissed with their counts; arrow keys, Home and End move between them (WAI-ARIA tabs). */
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
  const list = useRef<HTMLDivElement>(null);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = REPORT_TABS.findIndex((t) => t.status === tab);
    const last = REPORT_TABS.length - 1;
    const keys: Record<string, number> = {
      ArrowRight: (index + 1) % REPORT_TABS.length,
      ArrowLeft: (index + last) % REPORT_TABS.length,
      Home: 0,
      End: last,
    };
    const target = keys[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = REPORT_TABS[target]!.status;
    onTab(next);
    list.current?.querySelector<HTMLElement>(`#${reportTabId(next)}`)?.focus();
  }

  return (
    <div className="admin-tabs" role="tablist" aria-label="Report status" ref={list} onKeyDown={onKeyDown}>
      {REPORT_TABS.map(({ status, label }) => {
        const selected = status === tab;
        return (
          <button
            key={status}
            id={reportTabId(status)}
            type="button"
            role="tab"
            className="admin-tabs__tab"
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            onClick={() => onTab(status)}
          >
            {label}
            {counts ? <span className="admin-tabs__count"> ({counts[status]})</span> : null}
          </button>
        );
      })}
    </div>
  );
}
