import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  /** alertdialog for confirmations; the description is read out with the title. */
  role?: 'dialog' | 'alertdialog';
  describedBy?: string;
  /** 'sheet' docks to the bottom on phones (the comments panel). */
  variant?: 'modal' | 'sheet';
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog that also holds text areas: focus moves in on open (the [data-autofocus] element, else the
 * first field, else the first control), Tab stays inside, Escape or the backdrop closes it and focus returns to what opened it.
 */
export function Dialog({
  title,
  onClose,
  children,
  role = 'dialog',
  describedBy,
  variant = 'modal',
}: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const root = panel.current;
    const focusables = () => Array.from(root?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
    // data-autofocus wins over fields before it (the composer's mood radios come before its text).
    const field =
      root?.querySelector<HTMLElement>('[data-autofocus]') ??
      root?.querySelector<HTMLElement>('input:not([disabled]), textarea:not([disabled])');
    (field ?? focusables()[0] ?? root)?.focus();
    const onKey = (event: KeyboardEvent) => {
      // Only the top-most dialog answers (a confirmation opened over the composer).
      const open = document.querySelectorAll('.cf-dialog');
      if (open.item(open.length - 1) !== root?.parentElement) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        closeRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables();
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <div className={`cf-dialog cf-dialog--${variant}`}>
      <div className="cf-dialog__backdrop" aria-hidden="true" onClick={() => closeRef.current()} />
      <div
        className="cf-dialog__panel"
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
      >
        <div className="cf-dialog__head">
          <h2 className="cf-dialog__title" id={titleId}>
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={() => closeRef.current()}>
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
      <p className="cf-dialog__text" id={messageId}>
        {message}
      </p>
      <div className="cf-dialog__actions">
        <button type="button" className="button button--secondary" onClick={onCancel} data-autofocus>
          Cancel
        </button>
        <button
          type="button"
          className={`button ${danger ? 'button--primary cf-danger' : 'button--primary'}`}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
