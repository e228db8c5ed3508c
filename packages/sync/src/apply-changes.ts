import type { Change } from '@campus/protocol';
import { syncTables, type CampusDatabase } from './database';
import type { ApplyContext, ChangeApplier, ChangeAppliers } from './feature-contract';
import { readCursor, writeCursor } from './meta';

/** The engine's side of applying: the user, what is open on screen, and the in-memory effects. */
export interface ApplyEnvironment extends Omit<ApplyContext, 'db' | 'afterCommit'> {
  appliers: ChangeAppliers;
}

/**
 * Applies changes in seq order and advances the cursor in the same transaction, so a page is applied
 * whole or not at all. Changes at or below the cursor were applied before and are skipped: this is what
 * makes a re-sent page or a live push that the pull also returned harmless. `pageCursor` (a pull's answer)
 * may move the cursor past the last change. Effects on in-memory state run once the transaction committed.
 * Returns the changes actually applied.
 */
export async function applyChanges(
  db: CampusDatabase,
  env: ApplyEnvironment,
  changes: readonly Change[],
  pageCursor?: number,
): Promise<Change[]> {
  const ordered = [...changes].sort((a, b) => a.seq - b.seq);
  const effects: (() => void)[] = [];
  const { appliers, ...view } = env;
  const ctx: ApplyContext = { ...view, db, afterCommit: (effect) => void effects.push(effect) };
  const applied = await db.transaction('rw', syncTables(db), async () => {
    let cursor = await readCursor(db);
    const done: Change[] = [];
    for (const change of ordered) {
      if (change.seq <= cursor) continue;
      // The table is typed per change type; `change` is of the type it is looked up by.
      await (appliers[change.type] as ChangeApplier<Change['type']>)(ctx, change);
      cursor = change.seq;
      done.push(change);
    }
    const next = Math.max(cursor, pageCursor ?? 0);
    if (next !== (await readCursor(db))) await writeCursor(db, next);
    return done;
  });
  for (const effect of effects) effect();
  return applied;
}
