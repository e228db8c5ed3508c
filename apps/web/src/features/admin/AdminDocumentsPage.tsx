import { useState } from 'react';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { ADMIN_TABS, type AdminTab } from './admin-api';
import { AdminTabs, tabId } from './AdminTabs';
import { ManualCollegesLink } from './colleges/ManualCollegesLink';
import { ReportsLink } from './reports/ReportsLink';
import { DocumentReviewItem } from './DocumentReviewItem';
import { useAdminDocuments } from './useAdminDocuments';
import './admin.css';
import { ListFooter } from './ListFooter';

const PANEL_ID = 'admin-documents-panel';

function Skeletons() {
  return (
    <div className="admin-skeletons" aria-hidden="true">
      {[0, 1, 2].map((index) => (
        <div key={index} className="admin-item admin-item--skeleton" />
      ))}
    </div>
  );
}

/**
 * The admin's review of student IDs (admin-only route): students by document status, the queue first and
 * oldest first, each with the document, what its text says beside the profile, and the decision.
 */
export function AdminDocumentsPage() {
  useDocumentTitle('Document review');
  const [tab, setTab] = useState<AdminTab>('pending_verification');
  const { list, reload, loadMore, decided } = useAdminDocuments(tab);
  /** The last decision or refusal, said once for everyone (the item may have left the list). */
  const [notice, setNotice] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const empty = !list.loading && !list.error && list.items.length === 0;
  const emptyText = ADMIN_TABS.find((t) => t.status === tab)?.empty ?? '';

  return (
    <section className="page admin-page" aria-labelledby="page-title">
      <header className="page__header">
        <h1 className="page__title" id="page-title">
          Document review
        </h1>
        <p className="page__lead">Check each student ID against the profile, then verify or reject it.</p>
        <ManualCollegesLink />
        <ReportsLink />
      </header>
      <AdminTabs
        tab={tab}
        counts={list.counts}
        panelId={PANEL_ID}
        onTab={(next) => {
          setNotice(null);
          setTab(next);
        }}
      />
      <div
        id={PANEL_ID}
        role="tabpanel"
        aria-labelledby={tabId(tab)}
        aria-busy={list.loading}
        className="admin-panel"
      >
        {notice ? (
          <p
            className={`form-message form-message--${notice.tone}`}
            role={notice.tone === 'error' ? 'alert' : 'status'}
          >
            {notice.text}
          </p>
        ) : null}
        {list.loading && list.items.length === 0 ? <Skeletons /> : null}
        {empty ? (
          <div className="empty-state">
            <p className="empty-state__title">Nothing here</p>
            <p className="empty-state__text">{emptyText}</p>
          </div>
        ) : null}
        {list.items.length > 0 ? (
          <ul className="admin-list" aria-label="Students">
            {list.items.map((item) => (
              <li key={item.user.id}>
                <DocumentReviewItem
                  item={item}
                  onDecided={(before, after, summary) => {
                    setNotice({ text: summary, tone: 'success' });
                    decided(before, after);
                  }}
                  onStale={(message) => {
                    setNotice({ text: message, tone: 'error' });
                    void reload();
                  }}
                />
              </li>
            ))}
          </ul>
        ) : null}
        <ListFooter
          state={{
            error: list.error,
            next: list.next,
            loadingMore: list.loadingMore,
            hasItems: list.items.length > 0,
          }}
          reload={reload}
          loadMore={loadMore}
        />
      </div>
    </section>
  );
}
