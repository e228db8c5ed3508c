import { useRef, type KeyboardEvent } from 'react';

/**
 * An admin list's statuses as tabs with their counts (a null count shows none); arrow keys, Home and End
 * move between them and focus the new tab (WAI-ARIA tabs). Shared by the documents' review and the reports.
 */
export function StatusTabs<S extends string>({
  tabs,
  tab,
  label,
  tabId,
  countOf,
  panelId,
  onTab,
}: {
  tabs: readonly { status: S; label: string }[];
  tab: S;
  /** The tab list's accessible name ('Document status'). */
  label: string;
  tabId(status: S): string;
  countOf(status: S): number | null;
  panelId: string;
  onTab(tab: S): void;
}) {
  const list = useRef<HTMLDivElement>(null);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((t) => t.status === tab);
    const last = tabs.length - 1;
    const keys: Record<string, number> = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowLeft: (index + last) % tabs.length,
      Home: 0,
      End: last,
    };
    const target = keys[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = tabs[target]!.status;
    onTab(next);
    list.current?.querySelector<HTMLElement>(`#${tabId(next)}`)?.focus();
  }

  return (
    <div className="admin-tabs" role="tablist" aria-label={label} ref={list} onKeyDown={onKeyDown}>
      {tabs.map(({ status, label: text }) => {
        const selected = status === tab;
        const count = countOf(status);
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
            {text}
            {count !== null ? <span className="admin-tabs__count"> ({count})</span> : null}
          </button>
        );
      })}
    </div>
  );
}
