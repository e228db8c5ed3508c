import type { MutationFrame, MutationInput } from '@campus/protocol';
import type { CampusDatabase, OutboxRow, OutboxUndo } from './database';

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

/** Adds a mutation to the queue; call inside the transaction that applies it optimistically. */
export async function enqueue(
  db: CampusDatabase,
  ids: MutationIds,
  input: MutationInput,
  undo?: OutboxUndo,
): Promise<OutboxRow> {
  const frame = { ...input, deviceId: ids.deviceId, mid: ids.next() } as MutationFrame;
  const row: OutboxRow = { deviceId: frame.deviceId, mid: frame.mid, frame, createdAt: Date.now() };
  if (undo) row.undo = undo;
  row.key = await db.outbox.add(row);
  return row;
}

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

/** A refused mutation: its optimistic effect is undone, or its message is marked failed with the reason. */
export async function rollback(db: CampusDatabase, row: OutboxRow, error: string): Promise<void> {
  const { frame, undo } = row;
  switch (frame.type) {
    case 'send_message':
      await db.messages.update(frame.id, { status: 'failed', error });
      return;
    case 'send_group_message':
      await db.groupMessages.update(frame.id, { status: 'failed', error });
      return;
    case 'mark_messages_as_read':
      if (undo?.kind !== 'read') return;
      await Promise.all(
        Object.entries(undo.statuses).map(([id, status]) => db.messages.update(id, { status })),
      );
      if (undo.unreadCount !== null)
        await db.conversations.update(undo.partnerId, { unreadCount: undo.unreadCount });
      return;
    case 'chat-reaction':
      if (undo?.kind === 'reaction') await db.messages.update(undo.messageId, { reactions: undo.reactions });
      return;
  }
}
