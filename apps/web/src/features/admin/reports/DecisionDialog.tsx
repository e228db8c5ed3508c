import { useId, useState, type FormEvent } from 'react';
import { REPORT, type ReportDecision, type ReportDecisionKind } from '@campus/protocol';
import { ConfirmDialog, Dialog } from '../../../components/Dialog';

const COPY: Record<ReportDecisionKind, { title: string; action: string; busy: string; lead: string }> = {
  warn: {
    title: 'Warn',
    action: 'Warn',
    busy: 'Warning…',
    lead: 'They get a notification that a moderator upheld a report about them. It never says who reported.',
  },
  suspend_random: {
    title: 'Suspend random talk',
    action: 'Suspend random talk',
    busy: 'Suspending…',
    lead: 'They cannot use random talk until the period ends. The rest of the app keeps working.',
  },
  suspend_account: {
    title: 'Suspend account',
    action: 'Suspend account',
    busy: 'Suspending…',
    lead: 'They are signed out everywhere at once and cannot sign in until the suspension ends.',
  },
  dismiss: {
    title: 'Dismiss report',
    action: 'Dismiss',
    busy: 'Dismissing…',
    lead: 'Nothing happens to them; the report moves to Dismissed.',
  },
};

interface Props {
  kind: ReportDecisionKind;
  /** The reported user's name. */
  name: string;
  busy: boolean;
  error: string | null;
  onDecide(decision: ReportDecision): void;
  onCancel(): void;
}

/** Days in a range, or null when the field does not hold one. */
function daysIn(text: string, range: { min: number; max: number }): number | null {
  const n = Number(text);
  return Number.isInteger(n) && n >= range.min && n <= range.max ? n : null;
}

/**
 * A decision with its optional note (admins only): a suspension asks how many days (an account's may be
 * permanent), and suspending an account asks once more, since it signs the student out at once.
 */
export function DecisionDialog({ kind, name, busy, error, onDecide, onCancel }: Props) {
  const noteId = useId();
  const daysId = useId();
  const daysHintId = useId();
  const copy = COPY[kind];
  const [note, setNote] = useState('');
  const [days, setDays] = useState('7');
  const [permanent, setPermanent] = useState(false);
  const [confirming, setConfirming] = useState<ReportDecision | null>(null);
  // A refusal after the confirmation goes back to the form, which shows it.
  const [seenError, setSeenError] = useState(error);
  if (error !== seenError) {
    setSeenError(error);
    if (error) setConfirming(null);
  }
  const range = kind === 'suspend_account' ? REPORT.suspendAccountDays : REPORT.suspendRandomDays;
  const suspends = kind === 'suspend_random' || kind === 'suspend_account';
  const validDays = daysIn(days, range);
  const daysWrong = suspends && !(kind === 'suspend_account' && permanent) && validDays === null;

  function decision(): ReportDecision | null {
    const trimmed = note.trim() || undefined;
    if (kind === 'warn' || kind === 'dismiss') return { decision: kind, note: trimmed };
    if (kind === 'suspend_account' && permanent) return { decision: kind, days: 'permanent', note: trimmed };
    if (validDays === null) return null;
    return { decision: kind, days: validDays, note: trimmed };
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = decision();
    if (!chosen) return;
    if (chosen.decision === 'suspend_account') setConfirming(chosen);
    else onDecide(chosen);
  }

  if (confirming?.decision === 'suspend_account')
    return (
      <ConfirmDialog
        title="Suspend account"
        message={
          confirming.days === 'permanent'
            ? `Suspend ${name}'s account permanently? They are signed out everywhere at once.`
            : `Suspend ${name}'s account for ${confirming.days} days? They are signed out everywhere at once.`
        }
        confirmLabel={busy ? copy.busy : 'Suspend account'}
        danger
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (!busy) onDecide(confirming);
        }}
      />
    );

  return (
    <Dialog title={`${copy.title}: ${name}`} onClose={onCancel} size="narrow">
      <form className="report-decision" noValidate onSubmit={submit}>
        <p className="modal__text">{copy.lead}</p>
        {kind === 'suspend_account' ? (
          <label className="report-decision__check">
            <input type="checkbox" checked={permanent} onChange={(e) => setPermanent(e.target.checked)} />
            <span>Permanently</span>
          </label>
        ) : null}
        {suspends && !(kind === 'suspend_account' && permanent) ? (
          <>
            <label className="field__label" htmlFor={daysId}>
              Days
            </label>
            <input
              id={daysId}
              className="field__input report-decision__days"
              type="number"
              inputMode="numeric"
              min={range.min}
              max={range.max}
              value={days}
              aria-invalid={daysWrong}
              aria-describedby={daysHintId}
              data-autofocus
              onChange={(e) => setDays(e.target.value)}
            />
            <p className="field__hint" id={daysHintId}>
              From {range.min} to {range.max} days.
            </p>
          </>
        ) : null}
        <label className="field__label" htmlFor={noteId}>
          Note for the record (admins only, optional)
        </label>
        <textarea
          id={noteId}
          className="field__input"
          rows={3}
          maxLength={REPORT.decisionNoteMax}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        {error ? (
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal__actions">
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
          <button
            type="submit"
            className={`button button--primary${kind === 'dismiss' ? '' : ' button--danger'}`}
            disabled={busy || daysWrong}
          >
            {busy ? copy.busy : copy.action}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
