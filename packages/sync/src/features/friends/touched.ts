import type { CampusDatabase } from '../../database';

/**
 * Which friends rows a change touched lately, and at which seq: `loadFriendsState` (fetch.ts) replaces the
 * three tables from REST, and must not put back what a change applied while its requests were out had
 * already made newer. Kept in `meta`, in the page's transaction, so every tab of the browser sees it.
 */
const TOUCHED_KEY = 'friends.touched';
/**
 * The most rows remembered (the newest seqs stay): far more friends changes than can land during one load,
 * since requests, blocks and unblocks are limited per hour.
 */
const TOUCHED_MAX = 512;

export type FriendsTable = 'friends' | 'friendRequests' | 'blocks';
type Touched = Record<string, number>;

const keyOf = (table: FriendsTable, id: string) => `${table}:${id}`;

async function readTouched(db: CampusDatabase): Promise<Touched> {
  const value = (await db.meta.get(TOUCHED_KEY))?.value;
  return value && typeof value === 'object' ? (value as Touched) : {};
}

/** A change at `seq` wrote (or deleted) the row `id` of `table`: called by the appliers, in their transaction. */
export async function touch(db: CampusDatabase, table: FriendsTable, id: string, seq: number): Promise<void> {
  const touched = { ...(await readTouched(db)), [keyOf(table, id)]: seq };
  let entries = Object.entries(touched);
  if (entries.length > TOUCHED_MAX) entries = entries.sort((a, b) => b[1] - a[1]).slice(0, TOUCHED_MAX);
  await db.meta.put({ key: TOUCHED_KEY, value: Object.fromEntries(entries) });
}

/** Whether a row was touched by a change after `seq`; inside the caller's transaction. */
export async function touchedAfter(
  db: CampusDatabase,
  seq: number,
): Promise<(table: FriendsTable, id: string) => boolean> {
  const touched = await readTouched(db);
  return (table, id) => (touched[keyOf(table, id)] ?? -Infinity) > seq;
}
