import { useId, useState, type FormEvent } from 'react';
import {
  REPORT,
  REPORT_MSG,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  type ReportReason,
} from '@campus/protocol';
import { Dialog } from '../../components/Dialog';
import { failureText, isApiError } from '../../lib/api';
import './safety.css';

export interface ReportInput {
  reason: ReportReason;
  /** Trimmed; '' when the reporter wrote nothing. */
  note: string;
  /** Also block the reported user (ticked by default). */
  block: boolean;
}

export interface ReportDialogProps {
  /** The reported user's name, as the dialog says it. */
  name: string;
  /** Sends the report (REST for chats, calls and friends; the random screens send theirs over /ws). */
  onSubmit(input: ReportInput): Promise<void>;
  onClose(): void;
}

/** What a failed submit says: the server's words when it answered, else why it could not be sent. */
function errorText(error: unknown): string {
  if (isApiError(error)) return failureText(error, REPORT_MSG.failed, REPORT_MSG.network);
  if (error instanceof Error && error.message) return error.message;
  return REPORT_MSG.failed;
}

/**
 * The report dialog (issue 13): why (one of the reasons), an optional note with its counter, and 'Also block'
 * ticked unless the reporter unticks it. Submit shows 'Submitting…', the server's refusal inside the dialog,
 * and once sent the thanks in place of the form.
 */
export function ReportDialog({ name, onSubmit, onClose }: ReportDialogProps) {
  const noteId = useId();
  const counterId = useId();
  const errorId = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [block, setBlock] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!reason) {
      setError(REPORT_MSG.reasonRequired);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ reason, note: note.trim(), block });
      setSent(true);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  if (sent)
    return (
      <Dialog title={REPORT_MSG.title(name)} onClose={onClose} size="narrow">
        <p className="report-dialog__sent" role="status">
          {REPORT_MSG.sent}
        </p>
        <div className="modal__actions">
          <button type="button" className="button button--primary" onClick={onClose} data-autofocus>
            {REPORT_MSG.done}
          </button>
        </div>
      </Dialog>
    );

  return (
    <Dialog title={REPORT_MSG.title(name)} onClose={onClose} size="narrow">
      <form className="report-dialog" noValidate onSubmit={(event) => void submit(event)}>
        <fieldset
          className="report-dialog__reasons"
          aria-describedby={error && !reason ? errorId : undefined}
        >
          <legend className="report-dialog__legend">{REPORT_MSG.question(name)}</legend>
          {REPORT_REASONS.map((value, index) => (
            <label key={value} className="report-dialog__reason">
              <input
                type="radio"
                name="report-reason"
                value={value}
                checked={reason === value}
                data-autofocus={index === 0 ? true : undefined}
                onChange={() => {
                  setReason(value);
                  setError(null);
                }}
              />
              <span>{REPORT_REASON_LABELS[value]}</span>
            </label>
          ))}
        </fieldset>
        <label className="field__label" htmlFor={noteId}>
          {REPORT_MSG.noteLabel}
        </label>
        <textarea
          id={noteId}
          className="field__input report-dialog__note"
          rows={3}
          maxLength={REPORT.noteMax}
          aria-describedby={counterId}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        <p className="field__hint report-dialog__counter" id={counterId}>
          {note.length}/{REPORT.noteMax}
        </p>
        <label className="report-dialog__block">
          <input type="checkbox" checked={block} onChange={(event) => setBlock(event.target.checked)} />
          <span>{REPORT_MSG.alsoBlock(name)}</span>
        </label>
        {error ? (
          <p className="form-message form-message--error" role="alert" id={errorId}>
            {error}
          </p>
        ) : null}
        <div className="modal__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {REPORT_MSG.cancel}
          </button>
          <button type="submit" className="button button--primary button--danger" disabled={busy}>
            {busy ? REPORT_MSG.submitting : REPORT_MSG.submit}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
