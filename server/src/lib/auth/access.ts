import {
  ACCESS_MSG,
  accessLevel,
  type AccessLevel,
  type DocumentStatus,
  type User,
  type VerificationPolicy,
} from '@campus/protocol';
import { createMiddleware } from 'hono/factory';
import { Refusal } from '../refusal';
import type { AuthEnv } from './middleware';
import { toUser, type UserRow } from './session-user';

/**
 * The access policy (issue 11): `pending_submission`, `pending_verification` and `rejected` accounts may
 * sign in, edit their profile, upload their document and read; posting, commenting, reacting and starting
 * chats or groups need `verified` or `not_required` (admins, exempted accounts), unless the deployment set
 * VERIFICATION_POLICY=off. REST routes put `fullAccessOnly` at their door; realtime mutations declare their
 * `access` (server/src/realtime/registry.ts) and the engine runs `participationCheck` (modules/users).
 */

/** The user as shown to themselves: with the access level the policy gives them. */
export function selfView(user: User, policy: VerificationPolicy): User {
  return { ...user, access: accessLevel(user.documentStatus, policy) };
}

/**
 * A user row as shown to its owner: the self view plus why their document was rejected (null otherwise).
 * Every answer about "me" (me, login, verify-otp, profile saves, `me_updated`) goes through this one mapper.
 */
export function selfUser(row: UserRow, policy: VerificationPolicy): User {
  return { ...selfView(toUser(row), policy), rejectionReason: row.rejection_reason ?? null };
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

/**
 * The REST door of a route that takes part (posting, commenting, reacting, starting a group, a chat
 * attachment): after `requireUser`, whose user is read from the database on every request, so an admin's
 * decision counts from the next request. Before the body is read or a rate limit is charged.
 */
export function fullAccessOnly(policy: VerificationPolicy) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    requireFullAccess(c.get('user').documentStatus, policy);
    await next();
  });
}
