import { AccessRefusalLink } from '../upload/AccessRefusalLink';
import type { ErrorLine } from './confessions-api';

/** The spec's red line: the message, then the HTTP status when there is one. */
export function ErrorText({ error }: { error: ErrorLine | string | null }) {
  if (!error) return null;
  const line = typeof error === 'string' ? { message: error } : error;
  return (
    <p className="cf-error" role="alert">
      <span>{line.message}</span>
      {line.status ? <span className="cf-error__status"> ({line.status})</span> : null}
      <AccessRefusalLink text={line.message} />
    </p>
  );
}
