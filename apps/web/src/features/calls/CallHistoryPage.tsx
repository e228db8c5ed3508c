import { Link } from 'react-router-dom';
import { CALL_MSG } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useLiveRows } from '../../lib/useLiveRows';
import { useSync } from '../sync/sync-context';
import { CallLogRow } from './CallLogRow';
import { useCallLogPages } from './useCallLogPages';

/** Call history, newest first, from the cache (readable offline); pages load through REST. */
export function CallHistoryPage() {
  useDocumentTitle('Call history');
  const client = useSync();
  const pages = useCallLogPages();
  const logs = useLiveRows(() => client.db.callLogs.orderBy('startedAt').reverse().toArray(), [client]);
  const empty = logs !== undefined && logs.length === 0;
  const firstLoad = logs === undefined || (empty && pages.status === 'loading');

  return (
    <section className="page call-history" aria-labelledby="page-title">
      <header className="page__header call-history__header">
        <Link to="/talk" className="icon-button" aria-label="Back to Talk">
          <Icon name="arrowLeft" />
        </Link>
        <h1 className="page__title" id="page-title">
          Call history
        </h1>
      </header>

      {firstLoad ? (
        <ul className="call-logs" aria-hidden="true" data-testid="call-log-skeletons">
          {Array.from({ length: 6 }, (_, i) => (
            <li key={i} className="call-log call-log--skeleton" />
          ))}
        </ul>
      ) : empty && pages.status === 'error' ? (
        <div className="call-history__state" role="alert">
          <p>{CALL_MSG.fetchLogsFailed}</p>
          <button type="button" className="button" onClick={pages.retry}>
            Retry
          </button>
        </div>
      ) : empty ? (
        <div className="call-history__state">
          <Icon name="phone" size={32} />
          <p>{CALL_MSG.noCalls}</p>
        </div>
      ) : (
        <>
          <ul className="call-logs" aria-label="Calls">
            {logs?.map((log) => (
              <CallLogRow key={log.id} log={log} selfId={client.userId} />
            ))}
          </ul>
          {pages.status === 'error' ? (
            <p className="call-history__error" role="alert">
              {CALL_MSG.fetchLogsFailed}{' '}
              <button type="button" className="button button--small button--secondary" onClick={pages.retry}>
                Retry
              </button>
            </p>
          ) : null}
          {pages.hasMore ? (
            <button
              type="button"
              className="button button--secondary call-history__more"
              disabled={pages.status === 'loading'}
              onClick={pages.more}
            >
              {pages.status === 'loading' ? 'Loading…' : 'Load more'}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
