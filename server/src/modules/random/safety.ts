import type { FileReportInput } from '../reports';
import { randomTalkRestriction, reportUser } from '../reports';
import type { AppDeps } from '../../deps';
import type { ReadTx, Tx } from '../../realtime/transaction';

/**
 * The one place random talk meets the reports module (issue 13, "Safety"): whether random talk is closed
 * to a student now, and a report filed from a room (with the reporter's block unless they unticked it).
 */

export function restrictionOf(tx: Pick<ReadTx, 'first' | 'now'>, userId: string) {
  return randomTalkRestriction(tx, userId, tx.now);
}

/** Files the report of a room's partner and, unless `block` is false, blocks them in the same commit. */
export function reportPartner(
  tx: Tx,
  deps: AppDeps,
  input: FileReportInput & { block: boolean },
): Promise<string> {
  return reportUser(tx, deps, input);
}
