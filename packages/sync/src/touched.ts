import type { CampusDatabase } from './database';

/**
 * Which rows a change touched lately, and at which seq, per registry (a feature's name). A feature that
 * replaces cached rows from a REST answer (friends, notifications) must not put back what a change applied
 * while its request was out had already made newer: it keeps the rows touched after the cursor it read
 * before asking. Kept in `meta`, in the change's transaction, so every tab of the browser sees it.
 */
export type TouchRegistry = 'friends' | 'notifications';

/**
 * The most rows remembered per registry (the newest seqs stay): far more changes than can land during one
 * load (friends' requests, blocks and unblocks are limited per hour; a notifications load takes a second).
 */
const TOUCHED_MAX = 512;

type Touched = Record<string, number>;

const keyOf = (registry: TouchRegistry) => `${registry}.touched`;

async function readTouched(db: CampusDatabase, registry: TouchRegistry): Promise<Touched> {
  const value = (await db.meta.get(keyOf(registry)))?.value;
  return value && typeof value === 'object' ? (value as Touched) : {};
}

/** A change at `seq` wrote (or deleted) row `id`: called by the appliers, in their transaction. */
export async function touch(
  db: CampusDatabase,
  registry: TouchRegistry,
  ids: readonly string[],
  seq: number,
): Promise<void> {
  const touched = { ...(await readTouched(db, registry)) };
  for (const id of ids) touched[id] = seq;
  let entries = Object.entries(touched);
  if (entries.length > TOUCHED_MAX) entries = entries.sort((a, b) => b[1] - a[1]).slice(0, TOUCHED_MAX);
  await db.meta.put({ key: keyOf(registry), value: Object.fromEntries(entries) });
}

/** Whether a row was touched by a change after `seq`; inside the caller's transaction. */
export async function touchedAfter(
  db: CampusDatabase,
  registry: TouchRegistry,
  seq: number,
): Promise<(id: string) => boolean> {
  const touched = await readTouched(db, registry);
  return (id) => (touched[id] ?? -Infinity) > seq;
}
