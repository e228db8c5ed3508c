import type { CampusDatabase } from '../../database';
import { touch as touchRows, touchedAfter as touchedRowsAfter } from '../../touched';

/** The friends feature's rows in the `friends` touch registry (touched.ts): one per table and id. */
export type FriendsTable = 'friends' | 'friendRequests' | 'blocks';

const rowKey = (table: FriendsTable, id: string) => `${table}:${id}`;

/** A change at `seq` wrote (or deleted) the row `id` of `table`: called by the appliers, in their transaction. */
export function touch(db: CampusDatabase, table: FriendsTable, id: string, seq: number): Promise<void> {
  return touchRows(db, 'friends', [rowKey(table, id)], seq);
}

/** Whether a row was touched by a change after `seq`; inside the caller's transaction. */
export async function touchedAfter(
  db: CampusDatabase,
  seq: number,
): Promise<(table: FriendsTable, id: string) => boolean> {
  const touched = await touchedRowsAfter(db, 'friends', seq);
  return (table, id) => touched(rowKey(table, id));
}
