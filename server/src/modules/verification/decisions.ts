import { randomUUID } from 'node:crypto';
import { ADMIN_MSG, type DocumentDecision, type DocumentStatus } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import { notify } from '../notifications';
import { insertDecision, setDecided, userRow } from './repo';
import { emitMe } from './upload';

/** The student's notification of a decision (in-app, and pushed when they have no live connection). */
export const DECISION_NOTICES = {
  verified: { title: 'Student ID verified', body: 'You can now post, chat and use Random Talk.' },
  rejectedTitle: 'Student ID rejected',
} as const;

const TARGET: Record<DocumentDecision['action'], DocumentStatus> = {
  verify: 'verified',
  reject: 'rejected',
  exempt: 'not_required',
};

/**
 * `PATCH /api/upload/admin/documents/{userId}`: an admin's decision, in one commit: the status moves by
 * check-and-set (verify and reject only from pending_verification, exempt from anything but not_required),
 * so two admins deciding at once give one decision and one 409; the history records who, when, what and
 * why; the student's devices get `me_updated` and the student a notification. Exempting an exempt account
 * changes nothing. Answers false when nothing changed.
 */
export async function decideDocument(
  deps: AppDeps,
  adminId: string,
  userId: string,
  decision: DocumentDecision,
): Promise<boolean> {
  return deps.transactor.commit(async (tx) => {
    const row = await userRow(tx, userId);
    if (!row) throw new HttpError(404, ADMIN_MSG.userNotFound);
    const from = row.document_status;
    const to = TARGET[decision.action];
    if (decision.action === 'exempt') {
      if (from === 'not_required') return false;
    } else if (from !== 'pending_verification') {
      throw new HttpError(409, ADMIN_MSG.notPending);
    } else if (decision.documentId !== row.current_document_id) {
      // The student replaced the document after the admin opened it: decide the new one, not this one.
      throw new HttpError(409, ADMIN_MSG.documentReplaced);
    }
    const reason = decision.reason ? decision.reason : null;
    const documentId = decision.action === 'exempt' ? undefined : (decision.documentId ?? undefined);
    // The student sees the reason of a rejection only; any other decision clears the last one.
    if (!(await setDecided(tx, userId, from, to, decision.action === 'reject' ? reason : null, documentId)))
      throw new HttpError(409, ADMIN_MSG.notPending);
    await insertDecision(tx, {
      id: randomUUID(),
      userId,
      documentId: row.current_document_id,
      actorId: adminId,
      action: decision.action,
      reason,
      fromStatus: from,
      toStatus: to,
    });
    await emitMe(tx, deps, userId);
    if (decision.action === 'verify')
      await notify(tx, deps, { userId, type: 'document_verified', ...DECISION_NOTICES.verified, data: {} });
    if (decision.action === 'reject')
      await notify(tx, deps, {
        userId,
        type: 'document_rejected',
        title: DECISION_NOTICES.rejectedTitle,
        body: reason ?? '',
        data: {},
      });
    return true;
  });
}
