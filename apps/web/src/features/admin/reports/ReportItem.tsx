import { useId, useState } from 'react';
import {
  REPORT_CONTEXT_LABELS,
  REPORT_DECISION_LABELS,
  REPORT_REASON_LABELS,
  type AdminReportItem,
  type ReportDecision,
  type ReportDecisionKind,
  type UserRef,
} from '@campus/protocol';
import { Avatar } from '../../../components/Avatar';
import { useApi } from '../../../lib/ApiContext';
import { formatTime } from '../ReviewFacts';
import { DecisionDialog } from './DecisionDialog';
import { EvidencePanel, untilText } from './EvidencePanel';
import { clearRandomHold, decideReport, decisionFailure, personName } from './reports-api';

interface Props {
  item: AdminReportItem;
  /** Saved: the report as the server has it now. */
  onDecided(before: AdminReportItem, after: AdminReportItem, summary: string): void;
  /** Refused because someone else decided it meanwhile (409): the page says why and reloads. */
  onStale(message: string): void;
  onHoldCleared(userId: string, summary: string): void;
}

const BUTTONS: { kind: ReportDecisionKind; label: string; danger: boolean }[] = [
  { kind: 'warn', label: 'Warn', danger: false },
  { kind: 'suspend_random', label: 'Suspend random talk', danger: true },
  { kind: 'suspend_account', label: 'Suspend account', danger: true },
  { kind: 'dismiss', label: 'Dismiss', danger: false },
];

function PersonCard({ role, user }: { role: string; user: UserRef | null }) {
  return (
    <div className="report-person">
      {user ? <Avatar user={user} /> : null}
      <div className="report-person__text">
        <span className="report-person__role">{role}</span>
        <span className="report-person__name">{personName(user)}</span>
      </div>
    </div>
  );
}

function contextText(item: AdminReportItem): string {
  const label = REPORT_CONTEXT_LABELS[item.context.kind];
  if (item.context.kind === 'random_room') return `${label} (${item.context.roomId})`;
  if (item.context.kind === 'call' && item.context.callLogId) return `${label} (${item.context.callLogId})`;
  return label;
}

/** What restricts the reported user now, as badges. */
function Restrictions({ item }: { item: AdminReportItem }) {
  const r = item.reportedRestriction;
  const badges = [
    r.randomReviewHold ? 'Random talk on hold until reviewed' : null,
    r.randomSuspendedUntil ? `Random talk paused${untilText(r.randomSuspendedUntil)}` : null,
    r.accountSuspendedUntil ? `Account suspended${untilText(r.accountSuspendedUntil)}` : null,
  ].filter((b): b is string => b !== null);
  if (!badges.length) return null;
  return (
    <ul className="report-restrictions" aria-label="Current restrictions">
      {badges.map((text) => (
        <li key={text} className="status-badge status-badge--rejected">
          {text}
        </li>
      ))}
    </ul>
  );
}

/** One report: who reported whom, why and where, the reported user's record, the evidence, the decision. */
export function ReportItem({ item, onDecided, onStale, onHoldCleared }: Props) {
  const api = useApi();
  const titleId = useId();
  const reported = personName(item.reported);
  const [dialog, setDialog] = useState<ReportDecisionKind | null>(null);
  const [showEvidence, setShowEvidence] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const history = item.reportedHistory;

  async function decide(decision: ReportDecision) {
    setBusy(true);
    setError(null);
    try {
      const after = await decideReport(api, item.id, decision);
      setDialog(null);
      onDecided(item, after, `${REPORT_DECISION_LABELS[decision.decision]}: ${reported}.`);
    } catch (failure) {
      const { message, stale } = decisionFailure(failure);
      if (stale) {
        setDialog(null);
        onStale(`${reported}: ${message}`);
      } else setError(message);
    } finally {
      setBusy(false);
    }
  }

  async function clearHold() {
    setBusy(true);
    setError(null);
    try {
      const answer = await clearRandomHold(api, item.reported.id);
      onHoldCleared(item.reported.id, `${reported}: ${answer.message}`);
    } catch (failure) {
      setError(decisionFailure(failure).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className="admin-item report-item" aria-labelledby={titleId}>
      <header className="report-item__head">
        <h2 className="admin-item__name" id={titleId}>
          Report about {reported}
        </h2>
        <span className="status-badge status-badge--rejected">{REPORT_REASON_LABELS[item.reason]}</span>
      </header>
      <div className="report-item__people">
        <PersonCard role="Reported by" user={item.reporter} />
        <PersonCard role="Reported" user={item.reported} />
      </div>
      <p className="admin-item__meta">
        {contextText(item)} · <time dateTime={item.createdAt}>{formatTime(item.createdAt)}</time> ·{' '}
        {history.reports} {history.reports === 1 ? 'report' : 'reports'} about {item.reported.firstName},{' '}
        {history.upheld} upheld
      </p>
      <Restrictions item={item} />
      {item.note ? (
        <blockquote className="report-item__note">
          <span className="visually-hidden">Reporter's note: </span>
          {item.note}
        </blockquote>
      ) : null}

      <div className="admin-item__document">
        {showEvidence ? (
          <EvidencePanel reportId={item.id} />
        ) : (
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => setShowEvidence(true)}
          >
            {item.evidenceCount > 0
              ? `View evidence (${item.evidenceCount} ${item.evidenceCount === 1 ? 'message' : 'messages'})`
              : 'View history'}
          </button>
        )}
      </div>

      {item.decision ? (
        <p className="report-item__decision">
          {REPORT_DECISION_LABELS[item.decision.decision]}
          {untilText(item.decision.until)} by {personName(item.decision.by)} on{' '}
          <time dateTime={item.decision.at}>{formatTime(item.decision.at)}</time>
          {item.decision.note ? ` · ${item.decision.note}` : ''}
        </p>
      ) : (
        <div className="admin-item__actions">
          {BUTTONS.map(({ kind, label, danger }) => (
            <button
              key={kind}
              type="button"
              className={`button ${danger ? 'button--primary button--danger' : 'button--secondary'}`}
              disabled={busy}
              onClick={() => {
                setError(null);
                setDialog(kind);
              }}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      {item.reportedRestriction.randomReviewHold ? (
        <div className="admin-item__actions">
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={busy}
            onClick={() => void clearHold()}
          >
            Clear random talk hold
          </button>
        </div>
      ) : null}
      {error && dialog === null ? (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      ) : null}

      {dialog ? (
        <DecisionDialog
          kind={dialog}
          name={reported}
          busy={busy}
          error={error}
          onCancel={() => setDialog(null)}
          onDecide={(decision) => void decide(decision)}
        />
      ) : null}
    </article>
  );
}
