import type { SyncResetFrame } from '@campus/protocol';
import type { CampusDatabase, LocalDirectMessage, LocalGroupMessage } from '../../database';
import { noteDirectMessage, noteGroupMessage } from './conversations';
import { toLocalDirect } from './message-store';

/** Rows that exist only on this device (queued or refused writes) survive a reset: the outbox still owns them. */
const localOnly = (row: LocalDirectMessage | LocalGroupMessage): boolean =>
  row.status === 'sending' || row.status === 'failed';

/**
 * `sync_reset`: the cursor was 0 or too old. Replaces the chat tables with the snapshot, inside the engine's
 * transaction that also sets the cursor. The outbox, the meta rows and this device's pending messages stay.
 */
export async function applyChatSnapshot(
  db: CampusDatabase,
  selfId: string,
  reset: SyncResetFrame,
): Promise<void> {
  const pending = (await db.messages.where('status').anyOf('sending', 'failed').toArray()).filter(localOnly);
  const pendingGroup = (await db.groupMessages.toArray()).filter(localOnly);
  await Promise.all([
    db.conversations.clear(),
    db.messages.clear(),
    db.groups.clear(),
    db.groupMessages.clear(),
    db.users.clear(),
  ]);
  await db.users.bulkPut(reset.users);
  await db.groups.bulkPut(reset.groups);
  await db.conversations.bulkPut(reset.conversations);
  await db.messages.bulkPut(reset.messages.map((m) => toLocalDirect(m, selfId)));
  await db.groupMessages.bulkPut(reset.groupMessages.map((m) => ({ ...m, status: m.status ?? 'sent' })));
  const snapshotIds = new Set([...reset.messages, ...reset.groupMessages].map((m) => m.id));
  const keptDirect = pending.filter((m) => !snapshotIds.has(m.id));
  const keptGroup = pendingGroup.filter((m) => !snapshotIds.has(m.id));
  await db.messages.bulkPut(keptDirect);
  await db.groupMessages.bulkPut(keptGroup);
  // The list still shows a chat's own pending message as its latest (as it did before the reset).
  for (const m of keptDirect) await noteDirectMessage(db, selfId, m, false);
  for (const m of keptGroup) await noteGroupMessage(db, selfId, m, false);
  // Own writes the snapshot already holds were stored: their queued sends are settled.
  if (snapshotIds.size)
    await db.outbox
      .where('frame.id')
      .anyOf([...snapshotIds])
      .delete();
}
