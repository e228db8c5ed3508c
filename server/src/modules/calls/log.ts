import type { CallLogStatus, CallType } from '@campus/protocol';
import { audience } from '../../realtime/audiences';
import type { Tx } from '../../realtime/transaction';
import type { UserRefs } from '../users';
import { insertLogSql } from './repo';

/** How a call ended, as the server logs it. */
export interface CallOutcome {
  /** The row's id, chosen when the call was placed (or refused busy): the call is logged once. */
  logId: string;
  callerId: string;
  calleeId: string;
  callType: CallType;
  /** When it was placed (ms). */
  startedAt: number;
  status: CallLogStatus;
  /** Seconds from the answer to the end (0 if never answered). */
  duration: number;
  /** The callee had blocked the caller: the row and its change are the caller's only. */
  calleeHidden: boolean;
}

/** Whole seconds between two instants in ms, never negative. */
export function secondsBetween(from: number | undefined, to: number): number {
  return from === undefined ? 0 : Math.max(0, Math.round((to - from) / 1000));
}

/**
 * Writes the call's log row inside the caller's commit and emits `call_logged` to the caller's devices and,
 * unless hidden, the callee's. A party deleted meanwhile leaves no row (its foreign key would refuse it);
 * a call already logged (by the coordinator before this one) neither a second row nor a second change.
 */
export async function writeCallLog(tx: Tx, refs: UserRefs, outcome: CallOutcome): Promise<void> {
  const caller = await refs.get(tx, outcome.callerId);
  const callee = await refs.get(tx, outcome.calleeId);
  if (!caller || !callee) return;
  const id = outcome.logId;
  const startedAt = new Date(outcome.startedAt).toISOString();
  const { status, callType, duration, calleeHidden } = outcome;
  const inserted = await tx.run(
    insertLogSql,
    id,
    caller.id,
    callee.id,
    callType,
    status,
    startedAt,
    duration,
    calleeHidden ? 1 : 0,
  );
  if (!inserted) return;
  const audiences = [audience.user(caller.id)];
  if (!calleeHidden) audiences.push(audience.user(callee.id));
  tx.emit(
    { type: 'call_logged', log: { id, status, callType, caller, callee, startedAt, duration } },
    audiences,
  );
}
