import { REALTIME_ERRORS, type MutationFrame, type RealtimeErrorReason } from '@campus/protocol';
import { sql, type Tx } from './transaction';

/** What a mutation came to: applied, or refused with a code, the text to show and where to show it. */
export type MutationOutcome = { ok: true } | MutationRefusal;
export interface MutationRefusal {
  ok: false;
  code: RealtimeErrorReason;
  error: string;
  context: string;
  groupId?: string;
}

export const APPLIED: MutationOutcome = { ok: true };

const deviceSql = sql<{ user_id: string; last_mid: number }>(
  'SELECT user_id, last_mid FROM device_mutations WHERE device_id = ?',
);
const saveDeviceSql = sql(
  `INSERT INTO device_mutations (device_id, user_id, last_mid, updated_ms) VALUES (?, ?, ?, ?)
   ON CONFLICT (device_id) DO UPDATE SET last_mid = excluded.last_mid, updated_ms = excluded.updated_ms`,
);
const rejectSql = sql<{ code: string; error: string; context: string }>(
  'SELECT code, error, context FROM mutation_rejects WHERE device_id = ? AND mid = ?',
);
// ON CONFLICT rather than SQLite's INSERT OR REPLACE: the same text runs on PostgreSQL.
const saveRejectSql = sql(
  `INSERT INTO mutation_rejects (device_id, mid, code, error, context, created_ms) VALUES (?, ?, ?, ?, ?, ?)
   ON CONFLICT (device_id, mid) DO UPDATE SET code = excluded.code, error = excluded.error,
     context = excluded.context, created_ms = excluded.created_ms`,
);

/**
 * Exactly once per (deviceId, mid): a device's mids only grow, so its last applied mid says whether a frame
 * is new; a refused one is remembered so a resend after a lost answer gets the same answer. The check, the
 * write and this bookkeeping share one transaction.
 */
export const exactlyOnce = {
  /**
   * `undefined` when the frame is new for this device; else what to answer without applying it again
   * (a device id belongs to the user who first used it: anyone else's frame on it is refused).
   */
  async seen(
    tx: Tx,
    frame: MutationFrame,
    userId: string,
    whereOf: (frame: MutationFrame) => Where,
  ): Promise<MutationOutcome | undefined> {
    const device = await tx.first(deviceSql, frame.deviceId);
    if (!device) return undefined;
    if (device.user_id !== userId) return refusal('badFrame', undefined, whereOf(frame));
    if (frame.mid > device.last_mid) return undefined;
    const stored = await tx.first(rejectSql, frame.deviceId, frame.mid);
    if (!stored) return APPLIED;
    const code = isRealtimeErrorReason(stored.code) ? stored.code : 'invalid';
    return { ok: false, code, error: stored.error, context: stored.context, ...groupOf(whereOf(frame)) };
  },

  // Queued, not awaited (Tx.queue): nothing reads their answer, and on PostgreSQL each awaited statement
  // is a round trip under the deployment's write lock. A failure still fails the savepoint or the commit.
  async applied(tx: Tx, frame: MutationFrame, userId: string): Promise<void> {
    tx.queue(saveDeviceSql, frame.deviceId, userId, frame.mid, tx.now);
  },

  async refused(tx: Tx, frame: MutationFrame, userId: string, outcome: MutationRefusal): Promise<void> {
    tx.queue(saveRejectSql, frame.deviceId, frame.mid, outcome.code, outcome.error, outcome.context, tx.now);
    tx.queue(saveDeviceSql, frame.deviceId, userId, frame.mid, tx.now);
  },
};

/** Where a refusal is shown: `message_error.context` and, for a group's, its id. */
export interface Where {
  context: string;
  groupId?: string;
}

function groupOf(where: Where): { groupId?: string } {
  return where.groupId === undefined ? {} : { groupId: where.groupId };
}

export function refusal(code: RealtimeErrorReason, error: string | undefined, where: Where): MutationRefusal {
  return { ok: false, code, error: error ?? defaultText(code), context: where.context, ...groupOf(where) };
}

function defaultText(code: RealtimeErrorReason): string {
  return REALTIME_ERRORS[code];
}

function isRealtimeErrorReason(code: string): code is RealtimeErrorReason {
  return Object.hasOwn(REALTIME_ERRORS, code);
}
