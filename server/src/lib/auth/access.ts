import {
  ACCESS_MSG,
  accessLevel,
  type AccessLevel,
  type DocumentStatus,
  type User,
  type VerificationPolicy,
} from '@campus/protocol';
import { Refusal } from '../refusal';

/**
 * The access policy (issue 11): `pending_submission`, `pending_verification` and `rejected` accounts may
 * sign in, edit their profile, upload their document and read; posting, commenting, reacting and starting
 * chats or groups need `verified` or `not_required` (admins, exempted accounts), unless the deployment set
 * VERIFICATION_POLICY=off. REST routes call `requireFullAccess`; realtime handlers `refuseUnlessFullAccess`.
 */

/** The user as shown to themselves: with the access level the policy gives them. */
export function selfView(user: User, policy: VerificationPolicy): User {
  return { ...user, access: accessLevel(user.documentStatus, policy) };
}

/** Why a limited account may not take part, in the spec's style, pointing at the upload page. */
export function accessMessage(status: DocumentStatus): string {
  if (status === 'pending_verification') return ACCESS_MSG.pendingVerification;
  if (status === 'rejected') return ACCESS_MSG.rejected;
  return ACCESS_MSG.verificationRequired;
}

export function levelOf(status: DocumentStatus, policy: VerificationPolicy): AccessLevel {
  return accessLevel(status, policy);
}

/**
 * Refuses unless the policy gives the user full access: a REST route answers 403
 * `{ error, code: 'verificationRequired', uploadPath }`, a realtime mutation `message_error` with code
 * `verificationRequired` and the same text. The client links the error to the upload page.
 */
export function requireFullAccess(status: DocumentStatus, policy: VerificationPolicy): void {
  if (accessLevel(status, policy) === 'full') return;
  throw new Refusal('verificationRequired', 403, accessMessage(status), {
    code: 'verificationRequired',
    uploadPath: ACCESS_MSG.uploadPath,
  });
}
