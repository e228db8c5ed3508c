import { Link } from 'react-router-dom';
import { ACCESS_MSG } from '@campus/protocol';
import './verification-notice.css';

/** The texts of the access policy's refusals (server/src/lib/auth/access.ts accessMessage). */
const ACCESS_TEXTS: ReadonlySet<string> = new Set([
  ACCESS_MSG.verificationRequired,
  ACCESS_MSG.pendingVerification,
  ACCESS_MSG.rejected,
]);

/**
 * A refusal by the access policy, over REST (403 `code: 'verificationRequired'`) or realtime
 * (`message_error` with that code): either way its text is one of ACCESS_MSG's, which is all a stored
 * failed message keeps.
 */
export function isAccessRefusal(text: string | null | undefined): boolean {
  return typeof text === 'string' && ACCESS_TEXTS.has(text);
}

/** Put after a refusal's text wherever refusals are shown: the way to the upload page, when it is one. */
export function AccessRefusalLink({ text }: { text: string | null | undefined }) {
  if (!isAccessRefusal(text)) return null;
  return (
    <Link className="access-refusal__link" to={ACCESS_MSG.uploadPath}>
      {text === ACCESS_MSG.pendingVerification ? 'See your verification status' : 'Upload your student ID'}
    </Link>
  );
}
