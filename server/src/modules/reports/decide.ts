import { randomUUID } from 'node:crypto';
import {
  PERMANENT_SUSPENSION_UNTIL,
  REPORT_MSG,
  type AdminReportItem,
  type ReportDecision,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { invalidateUserSessions } from '../../lib/auth/sessions';
import { dialectOf } from '../../lib/db/portable-sql';
import { HttpError } from '../../lib/http-error';
import type { Tx } from '../../realtime/transaction';
import { notify } from '../notifications';
import { reportItemIn } from './admin-list';
import { insertLog, reportById, reportStatements as q } from './repo';
import { applyAutoHold, clearHold, suspendAccount, suspendRandom } from './restrictions';

/** A decision as `reportDecisionSchema` parsed it (its note trimmed). */
type Decision = ReportDecision;

const DAY = 24 * 60 * 60_000;

/** The suspension a decision sets: its days (null when permanent) and its end. */
function suspensionOf(decision: Decision, now: number): { days: number | null; until: string | null } {
  if (decision.decision === 'suspend_random')
    return { days: decision.days, until: new Date(now + decision.days * DAY).toISOString() };
  if (decision.decision === 'suspend_account')
    return decision.days === 'permanent'
      ? { days: null, until: PERMANENT_SUSPENSION_UNTIL }
      : { days: decision.days, until: new Date(now + decision.days * DAY).toISOString() };
  return { days: null, until: null };
}

/**
 * What an upheld report does to the reported user, in the decision's transaction. The notifications say what
 * a moderator decided, never who reported: the reported user learns nothing of the reporter.
 */
async function apply(tx: Tx, deps: AppDeps, userId: string, decision: Decision, until: string | null) {
  if (decision.decision === 'warn')
    await notify(tx, deps, {
      userId,
      type: 'moderation_notice',
      title: REPORT_MSG.warningTitle,
      body: REPORT_MSG.warningBody,
      data: {},
    });
  if (decision.decision === 'suspend_random' && until) {
    await suspendRandom(tx, userId, until);
    await notify(tx, deps, {
      userId,
      type: 'moderation_notice',
      title: REPORT_MSG.randomSuspendedTitle,
      body: REPORT_MSG.randomSuspendedBody(until),
      data: {},
    });
  }
  if (decision.decision === 'suspend_account' && until) await suspendAccount(tx, userId, until);
}

/**
 * `POST /api/admin/reports/:id/decision`: decides an open report once, in one commit (check-and-set, so two
 * admins at once get one decision and one 409), recorded with the admin, the time and the note, with its
 * restriction and the user's moderation history; an upheld report may set the automatic hold. An account
 * suspension then ends every session of the user and closes their live sockets (sign-in and the session
 * check refuse them from the commit on). Answers the report as the queue shows it now.
 */
export async function decideReport(
  deps: AppDeps,
  adminId: string,
  reportId: string,
  decision: Decision,
): Promise<AdminReportItem> {
  const { item, suspendedUser } = await deps.transactor.commit(async (tx) => {
    const report = await reportById(tx, reportId);
    if (!report) throw new HttpError(404, REPORT_MSG.reportNotFound);
    if (report.status !== 'open') throw new HttpError(409, REPORT_MSG.alreadyDecided);
    if (report.reported_id === adminId) throw new HttpError(403, REPORT_MSG.ownReport);
    const { days, until } = suspensionOf(decision, tx.now);
    const at = new Date(tx.now).toISOString();
    const note = decision.note ? decision.note : null;
    const status = decision.decision === 'dismiss' ? 'dismissed' : 'upheld';
    const changed = await tx.run(
      q.decide,
      status,
      decision.decision,
      days,
      until,
      note,
      adminId,
      at,
      reportId,
    );
    if (!changed) throw new HttpError(409, REPORT_MSG.alreadyDecided);
    await insertLog(tx, {
      id: randomUUID(),
      userId: report.reported_id,
      actorId: adminId,
      action: decision.decision,
      reportId,
      until,
      note,
      at,
    });
    await apply(tx, deps, report.reported_id, decision, until);
    if (status === 'upheld') await applyAutoHold(tx, report.reported_id, 'upheld', reportId);
    return {
      item: await reportItemIn(tx, reportId, dialectOf(deps.db)),
      suspendedUser: decision.decision === 'suspend_account' ? report.reported_id : null,
    };
  });
  if (suspendedUser) {
    // The user's sockets close at once; the session rows go next (the session check refuses them already).
    deps.liveSockets.revokeUser(suspendedUser);
    await invalidateUserSessions(deps, suspendedUser);
  }
  // A suspension of random talk (or a hold) ends a wait or room the user has now, not only the next one.
  deps.realtime.accessChanged(item.reported.id);
  return item;
}

/** `POST /api/admin/users/:id/random-hold/clear`: answers whether there was a hold to clear. */
export async function clearRandomHold(
  deps: AppDeps,
  adminId: string,
  userId: string,
  note: string | null,
): Promise<boolean> {
  return deps.transactor.commit((tx) => clearHold(tx, userId, adminId, note));
}
