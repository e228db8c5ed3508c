import type { ReactNode } from 'react';
import { ListFooter } from './ListFooter';
import type { PagedList } from './usePagedList';

/** The last decision or refusal, said once for everyone above the list (its item may have left it). */
export interface AdminNotice {
  text: string;
  tone: 'success' | 'error';
}

/**
 * A paged admin list's panel (documents, manual colleges, reports): the notice, skeletons while the first
 * page loads, the empty state, the items, and the footer (Retry, Load more). Busy while a page loads.
 */
export function AdminListPanel<T>({
  list,
  reload,
  loadMore,
  notice,
  label,
  keyOf,
  renderItem,
  empty,
  skeletonClassName = '',
  skeletonTestId,
  tabPanel,
}: {
  list: Pick<PagedList<T, unknown>, 'items' | 'next' | 'loading' | 'loadingMore' | 'error'>;
  reload(): Promise<void>;
  loadMore(): Promise<void>;
  notice: AdminNotice | null;
  /** The list's accessible name ('Students'). */
  label: string;
  keyOf(item: T): string;
  renderItem(item: T): ReactNode;
  empty: { title: string; text: string };
  /** Extra classes of each skeleton, for lists whose rows are shaped differently. */
  skeletonClassName?: string;
  skeletonTestId?: string;
  /** Set when tabs above switch what the panel lists: it is then their tabpanel, named by the selected tab. */
  tabPanel?: { id: string; labelledBy: string };
}) {
  const hasItems = list.items.length > 0;
  const isEmpty = !list.loading && !list.error && !hasItems;
  const panelRole = tabPanel
    ? { id: tabPanel.id, role: 'tabpanel', 'aria-labelledby': tabPanel.labelledBy }
    : {};
  return (
    <div {...panelRole} aria-busy={list.loading} className="admin-panel">
      {notice ? (
        <p
          className={`form-message form-message--${notice.tone}`}
          role={notice.tone === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
        </p>
      ) : null}
      {list.loading && !hasItems ? (
        <div className="admin-skeletons" aria-hidden="true" data-testid={skeletonTestId}>
          {[0, 1, 2].map((index) => (
            <div key={index} className={`admin-item admin-item--skeleton ${skeletonClassName}`.trim()} />
          ))}
        </div>
      ) : null}
      {isEmpty ? (
        <div className="empty-state">
          <p className="empty-state__title">{empty.title}</p>
          <p className="empty-state__text">{empty.text}</p>
        </div>
      ) : null}
      {hasItems ? (
        <ul className="admin-list" aria-label={label}>
          {list.items.map((item) => (
            <li key={keyOf(item)}>{renderItem(item)}</li>
          ))}
        </ul>
      ) : null}
      <ListFooter
        state={{ error: list.error, next: list.next, loadingMore: list.loadingMore, hasItems }}
        reload={reload}
        loadMore={loadMore}
      />
    </div>
  );
}
