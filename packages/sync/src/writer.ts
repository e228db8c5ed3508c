import type { MutationFrame, MutationInput, UserRef } from '@campus/protocol';
import type { CampusDatabase, OutboxRow } from './database';

/**
 * This client's mutation ids. The device id is fresh for every client instance, so two tabs (or a tab
 * and its reload) never reuse a (deviceId, mid) pair; queued rows keep the pair they were created with.
 */
export class MutationIds {
  private last = 0;
  constructor(readonly deviceId: string = crypto.randomUUID()) {}
  next(): number {
    this.last += 1;
    return this.last;
  }
}

/**
 * What a feature's optimistic write gets: the user's database, the mutation ids and who the user is. A write
 * applies its effect to Dexie and queues its mutation in ONE transaction, so the screen and the queue can
 * never disagree (a crash leaves both or neither).
 */
export interface Writer {
  db: CampusDatabase;
  ids: MutationIds;
  self: UserRef;
}

/** A feature's client write, run through `client.run(write, ...args)`. */
export type ClientWrite<A extends unknown[], R> = (w: Writer, ...args: A) => Promise<R>;

/** Adds a mutation to the queue; call inside the transaction that applies it optimistically. */
export async function enqueueRow(w: Writer, input: MutationInput, undo?: unknown): Promise<OutboxRow> {
  // The spread keeps `input`'s own type; adding the pair makes it the frame of that type.
  const frame = { ...input, deviceId: w.ids.deviceId, mid: w.ids.next() } as MutationFrame;
  const row: OutboxRow = { deviceId: frame.deviceId, mid: frame.mid, frame, createdAt: Date.now() };
  if (undo !== undefined) row.undo = undo;
  row.key = await w.db.outbox.add(row);
  return row;
}
