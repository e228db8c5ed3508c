import { useId, useRef, type ReactNode } from 'react';
import { useModalFocus } from '../../components/useModalFocus';

/**
 * The call layer's modal: focus moves in and stays, Escape does `onEscape`. No backdrop click: a stray
 * click must not cancel or refuse a call.
 */
export function CallDialog({
  title,
  describedBy,
  role = 'dialog',
  testId,
  onEscape,
  focusTitle = false,
  children,
}: {
  title: ReactNode;
  describedBy?: string;
  role?: 'dialog' | 'alertdialog';
  testId: string;
  onEscape(): void;
  /**
   * Focus starts on the title instead of the first control: for a prompt that appears unasked (an incoming
   * call), where an Enter meant for the composer must not press a button.
   */
  focusTitle?: boolean;
  children: ReactNode;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useModalFocus(panel, onEscape);
  return (
    <div className="modal call-modal">
      <div className="modal__backdrop" aria-hidden="true" />
      <div
        ref={panel}
        className="modal__panel modal__panel--narrow call-modal__panel"
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        data-testid={testId}
      >
        <h2
          className="call-modal__title"
          id={titleId}
          {...(focusTitle ? { tabIndex: -1, 'data-autofocus': true } : {})}
        >
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
