import type { MessageErrorFrame, MutationType, RealtimeErrorReason } from '@campus/protocol';
import type { CampusDatabase, OutboxRow } from './database';
import type { MutationClients, MutationSide } from './feature-contract';

/** Removes the queued mutation the server answered; returns it (undefined when already settled). */
export async function settle(
  db: CampusDatabase,
  deviceId: string,
  mid: number,
): Promise<OutboxRow | undefined> {
  const row = await db.outbox.where('[deviceId+mid]').equals([deviceId, mid]).first();
  if (row?.key !== undefined) await db.outbox.delete(row.key);
  return row;
}

/** Queued rows after `key`, in queue order: what a connection has not sent yet. */
export function rowsAfter(db: CampusDatabase, key: number): Promise<OutboxRow[]> {
  return db.outbox.where('key').above(key).toArray();
}

/**
 * The client side of a queued row's mutation. The table is typed per mutation type; a row pairs a frame
 * with the undo its own type's write stored, which the engine passes back untouched (hence the one cast).
 */
function sideOf(table: MutationClients, type: MutationType): MutationSide<MutationType, unknown> {
  return table[type] as MutationSide<MutationType, unknown>;
}

/** An acknowledged mutation: its feature's settled hook (e.g. a post stops looking pending). */
export async function acknowledge(db: CampusDatabase, table: MutationClients, row: OutboxRow): Promise<void> {
  await sideOf(table, row.frame.type).settled?.({ db, frame: row.frame });
}

/** A refused mutation: its feature undoes the optimistic effect with the undo data its write stored. */
export async function rollback(
  db: CampusDatabase,
  table: MutationClients,
  row: OutboxRow,
  refusal: Pick<MessageErrorFrame, 'error'> & { code: RealtimeErrorReason },
): Promise<void> {
  await sideOf(table, row.frame.type).rollback?.({
    db,
    frame: row.frame,
    undo: row.undo,
    key: row.key ?? 0,
    error: refusal.error,
    code: refusal.code,
  });
}
