import type { MutationFrame, MutationInput } from '@campus/protocol';
import type { CampusDatabase, OutboxRow, OutboxUndo } from './database';
import { rollbackConfessionWrite } from './confession-undo';

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
      if (undo?.kind === 'read') await undoRead(db, undo);
      return;
    case 'chat-reaction':
      if (undo?.kind === 'reaction') await undoReaction(db, row, undo);
      return;
    default:
      await rollbackConfessionWrite(db, row);
  }
}

/** Messages still 'read' go back to what they were and count as unread again, on top of today's count. */
async function undoRead(db: CampusDatabase, undo: Extract<OutboxUndo, { kind: 'read' }>): Promise<void> {
  const ids = Object.keys(undo.statuses);
  const rows = await db.messages.bulkGet(ids);
  let restored = 0;
  for (const row of rows) {
    const previous = row ? undo.statuses[row.id] : undefined;
    if (!row || !previous || row.status !== 'read') continue;
    await db.messages.update(row.id, { status: previous });
    restored += 1;
  }
  const conversation = await db.conversations.get(undo.partnerId);
  if (conversation && restored)
    await db.conversations.update(undo.partnerId, { unreadCount: conversation.unreadCount + restored });
}

/**
 * Puts back only this user's own reaction. A newer reaction of theirs to the same message still queued
 * decides what it is, so then nothing is touched; others' reactions are never touched.
 */
async function undoReaction(
  db: CampusDatabase,
  row: OutboxRow,
  undo: Extract<OutboxUndo, { kind: 'reaction' }>,
): Promise<void> {
  // Rows queued before this fix kept a different undo: leave their message alone.
  if (typeof undo.userId !== 'string') return;
  const newer = await db.outbox
    .where('key')
    .above(row.key ?? 0)
    .filter((r) => r.frame.type === 'chat-reaction' && r.frame.messageId === undo.messageId)
    .count();
  if (newer) return;
  const message = await db.messages.get(undo.messageId);
  if (!message) return;
  const others = message.reactions.filter((r) => r.userId !== undo.userId);
  const reactions = undo.previous ? [...others, { emoji: undo.previous, userId: undo.userId }] : others;
  await db.messages.update(undo.messageId, { reactions });
}
