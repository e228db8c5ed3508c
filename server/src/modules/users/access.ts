import type { DocumentStatus, VerificationPolicy } from '@campus/protocol';
import { requireFullAccess } from '../../lib/auth/access';
import type { ParticipationCheck } from '../../realtime/registry';
import { sql } from '../../realtime/transaction';

// The primary key answers it: one probe per gated mutation.
const statusSql = sql<{ document_status: DocumentStatus }>('SELECT document_status FROM users WHERE id = ?');

/**
 * The realtime side of the access policy: the user's document status read inside the mutation's own
 * transaction (never from the session, which was read at sign-in), so an admin's verification or rejection
 * counts from the next mutation on every open socket. With VERIFICATION_POLICY=off nothing is read.
 */
export function participationCheck(policy: VerificationPolicy): ParticipationCheck {
  if (policy === 'off') return async () => undefined;
  return async (tx, userId) => {
    const row = await tx.first(statusSql, userId);
    // A user deleted since sign-in has no status: refused like the least verified account.
    requireFullAccess(row?.document_status ?? 'pending_submission', policy);
  };
}
