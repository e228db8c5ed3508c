import type { CampusDatabase } from './database';

/** Keys of the `meta` table the sync engine owns. */
export const META_KEYS = {
  /** The seq of the last change applied: what the next pull asks from. */
  cursor: 'sync.cursor',
} as const;

export async function readCursor(db: CampusDatabase): Promise<number> {
  const row = await db.meta.get(META_KEYS.cursor);
  return typeof row?.value === 'number' ? row.value : 0;
}

export async function writeCursor(db: CampusDatabase, cursor: number): Promise<void> {
  await db.meta.put({ key: META_KEYS.cursor, value: cursor });
}
