import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { RANDOM_MSG, hasFullAccess } from '@campus/protocol';
import { useSignedInUser } from '../session/session-context';
import { isProfileComplete } from '../profile/completion';
import { PROFILE_EDIT_STATE } from '../profile/profile-route';
import { VerificationNotice } from '../upload/VerificationNotice';

/**
 * Random and focused talk are for verified students with college, course and year (the access policy and
 * spec section 5; the server refuses the rest anyway): an account that may not use them yet sees why and
 * the way there instead of the options.
 */
export function RandomAccessGate({ children }: { children: ReactNode }) {
  const user = useSignedInUser();
  if (!hasFullAccess(user)) return <VerificationNotice />;
  if (!isProfileComplete(user)) {
    return (
      <div className="verify-notice" role="note" aria-label="Complete your profile">
        <p>{RANDOM_MSG.profileIncomplete}</p>
        <Link className="verify-notice__link" to="/profile" state={PROFILE_EDIT_STATE}>
          Complete your profile
        </Link>
      </div>
    );
  }
  return children;
}
