import type { ChangeDraft, Change, MutationFrame, RealtimeErrorReason } from '@campus/protocol';
import type { SyncClient } from '../../src';
import { applyChanges } from '../../src/apply-changes';
import { syncTables, type OutboxRow } from '../../src/database';
import { campusFeatures } from '../../src/features';
import { readCursor } from '../../src/meta';
import { acknowledge, rollback, settle } from '../../src/outbox';

/**
 * The engine's own dispatch, driven by the test in place of the server's frames: changes go through
 * applyChanges and the change table, answers through settle + the mutation table (what SyncEngine does on
 * `ack` and `message_error`). No second server: the server's side of these is tested in server/ and
 * tests/system.
 */

/** Applies changes as a live push would, numbered after the cursor. Returns them with their seq. */
/** The client's feature tables as the engine builds them, on a host whose session is never live. */
function featuresOf(client: SyncClient, openGroupId: string | null = null) {
  const built = campusFeatures({ db: client.db, send: () => false });
  if (openGroupId) built.rooms.joinGroup(openGroupId);
  return built.features;
}

export async function deliver(
  client: SyncClient,
  drafts: readonly ChangeDraft[],
  view: { openGroupId?: string | null } = {},
): Promise<Change[]> {
  let seq = await readCursor(client.db);
  const changes = drafts.map((draft) => ({ ...draft, seq: (seq += 1) }) as Change);
  await applyChanges(
    client.db,
    {
      appliers: featuresOf(client, view.openGroupId).changes,
      selfId: client.userId,
      clearTyping: () => undefined,
    },
    changes,
  );
  return changes;
}

/** The queued mutations, oldest first. */
export async function queued(client: SyncClient): Promise<MutationFrame[]> {
  return (await client.db.outbox.orderBy('key').toArray()).map((row) => row.frame);
}

type Pick = (row: OutboxRow) => boolean;

/** The server acknowledges the queued rows `pick` selects (all by default), in queue order. */
export async function ack(client: SyncClient, pick: Pick = () => true): Promise<void> {
  const { db } = client;
  for (const row of (await db.outbox.orderBy('key').toArray()).filter(pick)) {
    await db.transaction('rw', syncTables(db), async () => {
      const settled = await settle(db, row.deviceId, row.mid);
      if (settled) await acknowledge(db, featuresOf(client).mutations, settled);
    });
  }
}

/** The server refuses the queued rows `pick` selects, in queue order, with `error` (code `code`). */
export async function refuse(
  client: SyncClient,
  error: string,
  pick: Pick = () => true,
  code: RealtimeErrorReason = 'invalid',
): Promise<void> {
  const { db } = client;
  for (const row of (await db.outbox.orderBy('key').toArray()).filter(pick)) {
    await db.transaction('rw', syncTables(db), async () => {
      const settled = await settle(db, row.deviceId, row.mid);
      if (settled) await rollback(db, featuresOf(client).mutations, settled, { error, code });
    });
  }
}
