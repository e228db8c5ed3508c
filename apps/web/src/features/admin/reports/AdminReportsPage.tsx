import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { ReportStatus } from '@campus/protocol';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { AdminListPanel, type AdminNotice } from '../AdminListPanel';
import { ReportItem } from './ReportItem';
import { REPORT_TABS } from './reports-api';
import { ReportTabs, reportTabId } from './ReportTabs';
import { useAdminReports } from './useAdminReports';
import '../admin.css';
import './reports.css';

const PANEL_ID = 'admin-reports-panel';

/**
 * The admins' reports queue (issue 13), beside the documents' review: open reports oldest first, each with
 * both people, why and where, the evidence, the reported user's record and the decisions.
 */
export function AdminReportsPage() {
  useDocumentTitle('Reports');
  const [tab, setTab] = useState<ReportStatus>('open');
  const { list, reload, loadMore, replaced, holdCleared } = useAdminReports(tab);
  const [notice, setNotice] = useState<AdminNotice | null>(null);

  return (
    <section className="page admin-page" aria-labelledby="page-title">
      <header className="page__header">
        <h1 className="page__title" id="page-title">
          Reports
        </h1>
        <p className="page__lead">Review what students reported, then warn, suspend or dismiss.</p>
        <p className="admin-nav">
          <Link to="/admin/documents" className="link-button">
            Document review
          </Link>
        </p>
      </header>
      <ReportTabs
        tab={tab}
        counts={list.counts}
        panelId={PANEL_ID}
        onTab={(next) => {
          setNotice(null);
          setTab(next);
        }}
      />
      <AdminListPanel
        tabPanel={{ id: PANEL_ID, labelledBy: reportTabId(tab) }}
        list={list}
        reload={reload}
        loadMore={loadMore}
        notice={notice}
        label="Reports"
        keyOf={(item) => item.id}
        renderItem={(item) => (
          <ReportItem
            item={item}
            onDecided={(before, after, summary) => {
              setNotice({ text: summary, tone: 'success' });
              replaced(before, after);
            }}
            onStale={(message) => {
              setNotice({ text: message, tone: 'error' });
              void reload();
            }}
            onHoldCleared={(userId, summary) => {
              setNotice({ text: summary, tone: 'success' });
              holdCleared(userId);
            }}
          />
        )}
        empty={{ title: 'Nothing here', text: REPORT_TABS.find((t) => t.status === tab)?.empty ?? '' }}
        skeletonTestId="report-skeletons"
      />
    </section>
  );
}
