import { useRef, type KeyboardEvent } from 'react';
import { ADMIN_TABS, type AdminTab } from './admin-api';

interface Props {
  tab: AdminTab;
  counts: Record<string, number>;
  panelId: string;
  onTab(tab: AdminTab): void;
}

function countOf(status: AdminTab, counts: Record<string, number>): number | null {
  if (status in counts) return counts[status] ?? 0;
  if (status !== 'all') return null;
  const values = Object.values(counts);
  return values.length ? values.reduce((sum, n) => sum + n, 0) : null;
}

export function tabId(status: AdminTab): string {
  return `admin-tab-${status}`;
}

/** The statuses as tabs with their counts; arrow keys, Home and End move between them (WAI-ARIA tabs). */
export function AdminTabs({ tab, counts, panelId, onTab }: Props) {
  const list = useRef<HTMLDivElement>(null);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = ADMIN_TABS.findIndex((t) => t.status === tab);
    const last = ADMIN_TABS.length - 1;
    const target =
      event.key === 'ArrowRight'
        ? (index + 1) % ADMIN_TABS.length
        : event.key === 'ArrowLeft'
          ? (index + last) % ADMIN_TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    const next = ADMIN_TABS[target]!.status;
    onTab(next);
    list.current?.querySelector<HTMLElement>(`#${tabId(next)}`)?.focus();
  }

  return (
    <div className="admin-tabs" role="tablist" aria-label="Document status" ref={list} onKeyDown={onKeyDown}>
      {ADMIN_TABS.map(({ status, label }) => {
        const selected = status === tab;
        const count = countOf(status, counts);
        return (
          <button
            key={status}
            id={tabId(status)}
            type="button"
            role="tab"
            className="admin-tabs__tab"
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            onClick={() => onTab(status)}
          >
            {label}
            {count !== null ? <span className="admin-tabs__count"> ({count})</span> : null}
          </button>
        );
      })}
    </div>
  );
}
