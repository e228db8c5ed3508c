import { useState } from 'react';
import { Link } from 'react-router-dom';
import { COLLEGE_ADMIN_MSG } from '@campus/protocol';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { AdminListPanel, type AdminNotice } from '../AdminListPanel';
import { ManualCollegeRow } from './ManualCollegeRow';
import { useManualColleges } from './useManualColleges';
import '../admin.css';
import './admin-colleges.css';

/**
 * Colleges typed in by students (admin-only route), oldest first: approve one into the picker's lists, or
 * merge it into the listed college the students meant.
 */
export function AdminCollegesPage() {
  useDocumentTitle('Manual colleges');
  const { list, reload, loadMore, removed } = useManualColleges();
  const [notice, setNotice] = useState<AdminNotice | null>(null);

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
      <AdminListPanel
        list={list}
        reload={reload}
        loadMore={loadMore}
        notice={notice}
        label="Manual colleges"
        keyOf={(college) => college.id}
        renderItem={(college) => (
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
        )}
        empty={{ title: COLLEGE_ADMIN_MSG.empty, text: 'Colleges students add by hand will appear here.' }}
        skeletonClassName="admin-college--skeleton"
      />
    </section>
  );
}
