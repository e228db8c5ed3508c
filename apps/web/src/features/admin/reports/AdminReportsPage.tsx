import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { ReportStatus } from '@campus/protocol';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { ListFooter } from '../ListFooter';
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
  const [notice, setNotice] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const empty = !list.loading && !list.error && list.items.length === 0;

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
      <div
        id={PANEL_ID}
        role="tabpanel"
        aria-labelledby={reportTabId(tab)}
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
        {list.loading && list.items.length === 0 ? (
          <div className="admin-skeletons" aria-hidden="true" data-testid="report-skeletons">
            {[0, 1, 2].map((index) => (
              <div key={index} className="admin-item admin-item--skeleton" />
            ))}
          </div>
        ) : null}
        {empty ? (
          <div className="empty-state">
            <p className="empty-state__title">Nothing here</p>
            <p className="empty-state__text">{REPORT_TABS.find((t) => t.status === tab)?.empty}</p>
          </div>
        ) : null}
        {list.items.length > 0 ? (
          <ul className="admin-list" aria-label="Reports">
            {list.items.map((item) => (
              <li key={item.id}>
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
