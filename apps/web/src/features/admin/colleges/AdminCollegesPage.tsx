import { useState } from 'react';
import { Link } from 'react-router-dom';
import { COLLEGE_ADMIN_MSG } from '@campus/protocol';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { ManualCollegeRow } from './ManualCollegeRow';
import { useManualColleges } from './useManualColleges';
import '../admin.css';
import './admin-colleges.css';
import { ListFooter } from '../ListFooter';

function Skeletons() {
  return (
    <div className="admin-skeletons" aria-hidden="true">
      {[0, 1, 2].map((index) => (
        <div key={index} className="admin-item admin-item--skeleton admin-college--skeleton" />
      ))}
    </div>
  );
}

/**
 * Colleges typed in by students (admin-only route), oldest first: approve one into the picker's lists, or
 * merge it into the listed college the students meant.
 */
export function AdminCollegesPage() {
  useDocumentTitle('Manual colleges');
  const { list, reload, loadMore, removed } = useManualColleges();
  /** The last approval, merge or refusal, said once for everyone (its row has left the list). */
  const [notice, setNotice] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const empty = !list.loading && !list.error && list.items.length === 0;

  return (
    <section className="page admin-page" aria-labelledby="page-title">
      <header className="page__header">
        <p className="admin-nav">
          <Link to="/admin/documents" className="link-button">
            ← Document review
          </Link>
        </p>
        <h1 className="page__title" id="page-title">
          Manual colleges{list.loading ? '' : ` (${list.total})`}
        </h1>
        <p className="page__lead">
          Colleges students typed in by hand. Approve one to list it in the college picker, or merge it into
          the listed college they meant.
        </p>
      </header>
      <div className="admin-panel" aria-busy={list.loading}>
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
            <p className="empty-state__title">{COLLEGE_ADMIN_MSG.empty}</p>
            <p className="empty-state__text">Colleges students add by hand will appear here.</p>
          </div>
        ) : null}
        {list.items.length > 0 ? (
          <ul className="admin-list" aria-label="Manual colleges">
            {list.items.map((college) => (
              <li key={college.id}>
                <ManualCollegeRow
                  college={college}
                  onDone={(id, summary) => {
                    setNotice({ text: summary, tone: 'success' });
                    removed(id);
                  }}
                  onGone={(message) => {
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
