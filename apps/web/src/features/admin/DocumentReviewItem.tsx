import { useId, useState } from 'react';
import { documentStatusBadge, type AdminDocumentItem, type DocumentDecision } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { ConfirmDialog } from '../../components/Dialog';
import { useApi } from '../../lib/ApiContext';
import { formatBytes } from '../upload/prepare-file';
import { collegeLabel, decide, decisionFailure, fullName } from './admin-api';
import { DocumentViewer } from './DocumentViewer';
import { RejectDialog } from './RejectDialog';
import { DecisionHistory, FieldsComparison, ServerVerdict, formatTime } from './ReviewFacts';

interface Props {
  item: AdminDocumentItem;
  /** Saved: the item as the server has it now (null when its answer did not carry it). */
  onDecided(before: AdminDocumentItem, after: AdminDocumentItem | null, summary: string): void;
  /** Refused because the item changed meanwhile (409): the page says why and loads it again. */
  onStale(message: string): void;
}

const DONE: Record<DocumentDecision['action'], string> = {
  verify: 'Verified',
  reject: 'Rejected',
  exempt: 'Exempted',
};

/** One student in the review: who they are, what their card says, the document, and the decision. */
export function DocumentReviewItem({ item, onDecided, onStale }: Props) {
  const api = useApi();
  const nameId = useId();
  const { user, document } = item;
  const name = fullName(user);
  const [viewing, setViewing] = useState(false);
  const [dialog, setDialog] = useState<'reject' | 'exempt' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pending = user.documentStatus === 'pending_verification';
  const details = [collegeLabel(user.college), user.course, user.year ? `Year ${user.year}` : null].filter(
    Boolean,
  );

  async function run(decision: DocumentDecision) {
    setBusy(true);
    setError(null);
    try {
      const after = await decide(api, user.id, decision);
      setDialog(null);
      onDecided(item, after, `${DONE[decision.action]} ${name}.`);
    } catch (failure) {
      const { message, stale } = decisionFailure(failure);
      if (stale) {
        setDialog(null);
        onStale(`${name}: ${message}`);
      } else {
        // The reason dialog keeps its text and shows why; a confirmation closes and the item shows it.
        if (decision.action !== 'reject') setDialog(null);
        setError(message);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className="admin-item" aria-labelledby={nameId}>
      <header className="admin-item__head">
        <Avatar user={user} size="lg" />
        <div className="admin-item__who">
          <h2 className="admin-item__name" id={nameId}>
            {name}
          </h2>
          <p className="admin-item__email">{user.email}</p>
          <p className="admin-item__details">{details.length ? details.join(' · ') : 'No profile details'}</p>
        </div>
        <span className={`status-badge status-badge--${user.documentStatus}`}>
          {documentStatusBadge(user.documentStatus)}
        </span>
      </header>

      <p className={`admin-item__flag${item.academicEmail ? ' admin-item__flag--yes' : ''}`}>
        {item.academicEmail
          ? `Academic e-mail (${item.academicEmail.domain}${item.academicEmail.college ? `, ${item.academicEmail.college}` : ''})`
          : 'Not an academic e-mail address'}
      </p>
      {document ? (
        <p className="admin-item__meta">
          Submitted <time dateTime={document.submittedAt}>{formatTime(document.submittedAt)}</time> ·{' '}
          {document.contentType === 'application/pdf' ? 'PDF' : 'Image'} · {formatBytes(document.size)}
        </p>
      ) : (
        <p className="admin-item__meta">No document uploaded.</p>
      )}
      {user.documentStatus === 'rejected' && item.rejectionReason ? (
        <p className="admin-item__meta">Rejection reason: {item.rejectionReason}</p>
      ) : null}

      <FieldsComparison item={item} />
      {document ? <ServerVerdict check={document.check} manual={document.manual} /> : null}

      <div className="admin-item__document">
        {viewing ? (
          <DocumentViewer userId={user.id} name={name} />
        ) : (
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={!document}
            onClick={() => setViewing(true)}
          >
            View document
          </button>
        )}
      </div>

      <div className="admin-item__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={!pending || busy}
          onClick={() => void run({ action: 'verify', documentId: document?.id })}
        >
          Verify
        </button>
        <button
          type="button"
          className="button button--primary button--danger"
          disabled={!pending || busy}
          onClick={() => {
            setError(null);
            setDialog('reject');
          }}
        >
          Reject
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={user.documentStatus === 'not_required' || busy}
          onClick={() => setDialog('exempt')}
        >
          Exempt
        </button>
      </div>
      {error && dialog === null ? (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      ) : null}

      <details className="admin-item__history">
        <summary>History ({item.history.length})</summary>
        <DecisionHistory history={item.history} />
      </details>

      {dialog === 'reject' ? (
        <RejectDialog
          name={name}
          busy={busy}
          error={error}
          onCancel={() => setDialog(null)}
          onReject={(reason) => void run({ action: 'reject', reason, documentId: document?.id })}
        />
      ) : null}
      {dialog === 'exempt' ? (
        <ConfirmDialog
          title="Exempt from verification"
          message={`${name} will be able to use everything without a verified student ID.`}
          confirmLabel="Exempt"
          onCancel={() => setDialog(null)}
          onConfirm={() => void run({ action: 'exempt' })}
        />
      ) : null}
    </article>
  );
}
