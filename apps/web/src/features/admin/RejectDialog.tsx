import { useId, useState, type FormEvent } from 'react';
import { ADMIN_MSG, UPLOAD } from '@campus/protocol';
import { Dialog } from '../../components/Dialog';

interface Props {
  name: string;
  busy: boolean;
  /** The decision's failure, shown inside the dialog while it is open. */
  error: string | null;
  onReject(reason: string): void;
  onCancel(): void;
}

/** Reject needs a reason: the student reads it on their upload page and in the notification. */
export function RejectDialog({ name, busy, error, onReject, onCancel }: Props) {
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const shown = missing ? ADMIN_MSG.reasonRequired : error;

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) {
      setMissing(true);
      return;
    }
    onReject(trimmed);
  }

  return (
    <Dialog title={`Reject ${name}'s document`} onClose={onCancel} size="narrow">
      <form className="admin-reject" noValidate onSubmit={submit}>
        <label className="field__label" htmlFor={fieldId}>
          Reason (the student sees it)
        </label>
        <textarea
          id={fieldId}
          className="field__input admin-reject__reason"
          rows={4}
          required
          aria-required="true"
          aria-invalid={missing}
          aria-describedby={shown ? `${hintId} ${errorId}` : hintId}
          maxLength={UPLOAD.maxRejectReasonLength}
          value={reason}
          data-autofocus
          onChange={(event) => {
            setReason(event.target.value);
            setMissing(false);
          }}
        />
        <p className="field__hint" id={hintId}>
          For example: the photo is blurred, or the card is not a student ID. {reason.length}/
          {UPLOAD.maxRejectReasonLength}
        </p>
        {shown ? (
          <p className="form-message form-message--error" role="alert" id={errorId}>
            {shown}
          </p>
        ) : null}
        <div className="modal__actions">
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button button--primary button--danger" disabled={busy}>
            {busy ? 'Rejecting…' : 'Reject'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
