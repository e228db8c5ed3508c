import { useEffect, useState } from 'react';
import {
  REPORT_DECISION_LABELS,
  REPORT_MSG,
  isPermanentSuspension,
  type AdminReportDetail,
  type ModerationEntry,
} from '@campus/protocol';
import { Spinner } from '../../../components/Spinner';
import { useApi } from '../../../lib/ApiContext';
import { formatTime } from '../ReviewFacts';
import { fetchReport, personName } from './reports-api';

const ACTIONS: Record<ModerationEntry['action'], string> = {
  ...REPORT_DECISION_LABELS,
  auto_hold: 'Random talk held automatically (several reporters)',
  clear_hold: 'Random talk hold cleared',
};

export function untilText(until: string | null): string {
  if (!until) return '';
  return isPermanentSuspension(until) ? ' (permanent)' : ` until ${formatTime(until)}`;
}

/** The text room's last messages as a transcript: who said it (reporter or reported), when, what. */
function Transcript({ detail }: { detail: AdminReportDetail }) {
  const messages = detail.evidence?.messages ?? [];
  if (messages.length === 0)
    return <p className="admin-facts__missing">No messages were kept with this report.</p>;
  const reporter = personName(detail.reporter);
  const reported = personName(detail.reported);
  return (
    <ol className="report-transcript" aria-label="Evidence transcript">
      {messages.map((m, index) => (
        <li key={index} className={`report-transcript__message report-transcript__message--${m.from}`}>
          <span className="report-transcript__who">
            {m.from === 'reported' ? `${reported} (reported)` : `${reporter} (reporter)`}
          </span>
          <time className="report-transcript__time" dateTime={m.at}>
            {formatTime(m.at)}
          </time>
          <p className="report-transcript__text">{m.text}</p>
        </li>
      ))}
    </ol>
  );
}

function History({ history }: { history: ModerationEntry[] }) {
  if (history.length === 0) return <p className="admin-facts__missing">No moderation history yet.</p>;
  return (
    <ul className="admin-history" aria-label="Moderation history">
      {history.map((entry) => (
        <li key={entry.id}>
          <time dateTime={entry.at}>{formatTime(entry.at)}</time>: {ACTIONS[entry.action]}
          {untilText(entry.until)}
          {entry.by ? ` by ${personName(entry.by)}` : ''}
          {entry.note ? <span className="admin-history__reason"> · {entry.note}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** The report's evidence and the reported user's moderation history, loaded when the admin opens them. */
export function EvidencePanel({ reportId }: { reportId: string }) {
  const api = useApi();
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'error' } | { status: 'ready'; detail: AdminReportDetail }
  >({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchReport(api, reportId, controller.signal).then(
      (detail) => setState({ status: 'ready', detail }),
      () => {
        if (!controller.signal.aborted) setState({ status: 'error' });
      },
    );
    return () => controller.abort();
  }, [api, reportId, attempt]);

  if (state.status === 'loading')
    return (
      <p className="doc-viewer__status" role="status">
        <Spinner />
        <span>Loading evidence…</span>
      </p>
    );
  if (state.status === 'error')
    return (
      <div className="form-message form-message--error" role="alert">
        <span>{REPORT_MSG.loadFailed}</span>
        <button
          type="button"
          className="button button--secondary button--small form-message__action"
          onClick={() => {
            setState({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        >
          Retry
        </button>
      </div>
    );
  return (
    <div className="report-evidence">
      <h3 className="report-evidence__title">Evidence</h3>
      <Transcript detail={state.detail} />
      <h3 className="report-evidence__title">Moderation history of {personName(state.detail.reported)}</h3>
      <History history={state.detail.history} />
    </div>
  );
}
