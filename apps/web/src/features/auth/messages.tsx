import type { ReactNode } from 'react';

/** The one error line of a form. role=alert makes screen readers announce it as soon as it appears. */
export function FormError({ children }: { children: ReactNode }) {
  return (
    <div className="form-message form-message--error" role="alert">
      {children}
    </div>
  );
}

/** Good news and progress (code sent, password reset), announced politely. */
export function FormStatus({ children }: { children: ReactNode }) {
  return (
    <div className="form-message form-message--success" role="status">
      {children}
    </div>
  );
}
