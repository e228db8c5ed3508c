import { useId, useRef, type ReactNode } from 'react';
import { useModalFocus } from './useModalFocus';
import './dialog.css';

interface DialogProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  /** alertdialog for confirmations; the description is read out with the title. */
  role?: 'dialog' | 'alertdialog';
  describedBy?: string;
  /** 'sheet' docks to the bottom on phones (the comments panel). */
  variant?: 'modal' | 'sheet';
  /** 'narrow' for short prompts and pickers; 'wide' for text to write and read. */
  size?: 'narrow' | 'wide';
  /** A Close button beside the title (Escape and the backdrop close it either way). */
  closeButton?: boolean;
}

/** The app's one modal dialog: backdrop, panel, title, focus kept inside (useModalFocus). */
export function Dialog({
  title,
  onClose,
  children,
  role = 'dialog',
  describedBy,
  variant = 'modal',
  size = 'wide',
  closeButton = true,
}: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useModalFocus(panel, onClose);

  return (
    <div className={`modal modal--${variant}`}>
      <div className="modal__backdrop" aria-hidden="true" onClick={onClose} />
      <div
        className={`modal__panel modal__panel--${size}`}
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
      >
        <div className="modal__head">
          <h2 className="modal__title" id={titleId}>
            {title}
          </h2>
          {closeButton && (
            <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
              <svg
                width="18"
                height="18"
                viewBox="0 0 24 24"
                aria-hidden="true"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
              >
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          )}
        </div>
        {children}
      </div>
    </div>
  );
}

interface ConfirmProps {
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** An accessible confirmation (alertdialog): the question is its description; focus starts on Cancel. */
export function ConfirmDialog({ title, message, confirmLabel, danger, onConfirm, onCancel }: ConfirmProps) {
  const messageId = useId();
  return (
    <Dialog title={title} onClose={onCancel} role="alertdialog" describedBy={messageId}>
      <p className="modal__text" id={messageId}>
        {message}
      </p>
      <div className="modal__actions">
        <button type="button" className="button button--secondary" onClick={onCancel} data-autofocus>
          Cancel
        </button>
        <button
          type="button"
          className={`button button--primary${danger ? ' button--danger' : ''}`}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
