import { useState } from 'react';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { ADMIN_TABS, type AdminTab } from './admin-api';
import { AdminListPanel, type AdminNotice } from './AdminListPanel';
import { AdminTabs, tabId } from './AdminTabs';
import { ManualCollegesLink } from './colleges/ManualCollegesLink';
import { ReportsLink } from './reports/ReportsLink';
import { DocumentReviewItem } from './DocumentReviewItem';
import { useAdminDocuments } from './useAdminDocuments';
import './admin.css';

const PANEL_ID = 'admin-documents-panel';

/**
 * The admin's review of student IDs (admin-only route): students by document status, the queue first and
 * oldest first, each with the document, what its text says beside the profile, and the decision.
 */
export function AdminDocumentsPage() {
  useDocumentTitle('Document review');
  const [tab, setTab] = useState<AdminTab>('pending_verification');
  const { list, reload, loadMore, decided } = useAdminDocuments(tab);
  const [notice, setNotice] = useState<AdminNotice | null>(null);

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
      <AdminListPanel
        tabPanel={{ id: PANEL_ID, labelledBy: tabId(tab) }}
        list={list}
        reload={reload}
        loadMore={loadMore}
        notice={notice}
        label="Students"
        keyOf={(item) => item.user.id}
        renderItem={(item) => (
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
        )}
        empty={{ title: 'Nothing here', text: ADMIN_TABS.find((t) => t.status === tab)?.empty ?? '' }}
      />
    </section>
  );
}
