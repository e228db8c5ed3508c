import type { KeyboardEvent } from 'react';
import type { FeedTab } from './useFeed';

interface FeedTabsProps {
  tab: FeedTab;
  onTab(tab: FeedTab): void;
  hasCollege: boolean;
  collegeTotal: number | null;
  total: number | null;
}

const count = (value: number | null) => (value === null ? '' : ` (${value})`);

/** 'Your College (n)' and 'Top (All) (n)'; the college tab only for a user with a college. */
export function FeedTabs({ tab, onTab, hasCollege, collegeTotal, total }: FeedTabsProps) {
  const tabs: { id: FeedTab; label: string }[] = [
    ...(hasCollege ? [{ id: 'college' as const, label: `Your College${count(collegeTotal)}` }] : []),
    { id: 'all', label: `Top (All)${count(total)}` },
  ];

  // Arrow keys move between tabs, as the tabs pattern expects.
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const index = tabs.findIndex((item) => item.id === tab);
    const next = tabs[(index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    if (!next) return;
    onTab(next.id);
    event.currentTarget.querySelector<HTMLElement>(`[data-tab="${next.id}"]`)?.focus();
  }

  return (
    <div className="cf-tabs" role="tablist" aria-label="Confession feeds" onKeyDown={onKeyDown}>
      {tabs.map((item) => (
        <button
          key={item.id}
          type="button"
          role="tab"
          data-tab={item.id}
          aria-selected={tab === item.id}
          aria-controls="confession-feed"
          tabIndex={tab === item.id ? 0 : -1}
          className="cf-tab"
          onClick={() => onTab(item.id)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
