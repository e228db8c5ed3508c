import { randomUUID } from 'node:crypto';
import { REPORT, type RandomTalkRestriction, type UserRestriction } from '@campus/protocol';
import type { ReadTx, Tx } from '../../realtime/transaction';
import { insertLog, reportStatements as q, restrictionOf } from './repo';
import type { RestrictionRow } from './rows';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

const iso = (ms: number) => new Date(ms).toISOString();
const inForce = (until: string | null, now: number): until is string => !!until && Date.parse(until) > now;

/**
 * Whether random talk is closed to the user at `now` (ms), for the matchmaker: a hold until an admin reviews
 * (it outlasts any date, so it is what they are told), else an admin's suspension until its end, else null.
 * One primary-key read; works on a commit's `tx` or a read's.
 */
export async function randomTalkRestriction(
  tx: Pick<ReadTx, 'first'>,
  userId: string,
  now: number,
): Promise<RandomTalkRestriction | null> {
  const row = await restrictionOf(tx, userId);
  if (!row) return null;
  if (row.random_review_hold === 1) return { until: null, reason: 'review' };
  if (inForce(row.random_suspended_until, now))
    return { until: row.random_suspended_until, reason: 'suspended' };
  return null;
}

/** The restrictions as the admin queue shows them: only those in force. */
export function toUserRestriction(row: RestrictionRow | undefined, now: number): UserRestriction {
  return {
    randomSuspendedUntil: row && inForce(row.random_suspended_until, now) ? row.random_suspended_until : null,
    randomReviewHold: row?.random_review_hold === 1,
    accountSuspendedUntil:
      row && inForce(row.account_suspended_until, now) ? row.account_suspended_until : null,
  };
}

async function ensureRow(tx: Tx, userId: string): Promise<void> {
  await tx.run(q.ensureRestriction, userId, iso(tx.now));
}

export async function suspendRandom(tx: Tx, userId: string, until: string): Promise<void> {
  await ensureRow(tx, userId);
  await tx.run(q.suspendRandom, until, until, iso(tx.now), userId);
}

export async function suspendAccount(tx: Tx, userId: string, until: string): Promise<void> {
  await ensureRow(tx, userId);
  await tx.run(q.suspendAccount, until, until, iso(tx.now), userId);
}

/**
 * An admin clears the user's hold on random talk: reports filed before now no longer count towards a new
 * automatic one. Answers false when there was no hold.
 */
export async function clearHold(tx: Tx, userId: string, adminId: string, note: string | null) {
  const at = iso(tx.now);
  if (!(await tx.run(q.clearHold, at, at, userId))) return false;
  await insertLog(tx, {
    id: randomUUID(),
    userId,
    actorId: adminId,
    action: 'clear_hold',
    reportId: null,
    until: null,
    note,
    at,
  });
  return true;
}

/**
 * The automatic hold on random talk ("restricted automatically until an admin reviews"): set when the user's
 * reports of `status` come from at least REPORT.autoHoldReporters distinct reporters within the window (open
 * ones within a day of filing, upheld ones within 30 days), counting only reports filed since an admin last
 * cleared a hold. Runs in the transaction that filed or upheld the report. Answers whether it set the hold.
 */
export async function applyAutoHold(
  tx: Tx,
  userId: string,
  status: 'open' | 'upheld',
  reportId: string,
): Promise<boolean> {
  const window = status === 'open' ? REPORT.openWindowHours * HOUR : REPORT.upheldWindowDays * DAY;
  const row = await restrictionOf(tx, userId);
  if (row?.random_review_hold === 1) return false;
  const windowStart = iso(tx.now - window);
  const since = row?.hold_cleared_at && row.hold_cleared_at > windowStart ? row.hold_cleared_at : windowStart;
  const found = await tx.first(q.distinctReporters, userId, since, status);
  if (Number(found?.n ?? 0) < REPORT.autoHoldReporters) return false;
  await ensureRow(tx, userId);
  const at = iso(tx.now);
  if (!(await tx.run(q.setHold, at, userId))) return false;
  await insertLog(tx, {
    id: randomUUID(),
    userId,
    actorId: null,
    action: 'auto_hold',
    reportId,
    until: null,
    note: null,
    at,
  });
  return true;
}
