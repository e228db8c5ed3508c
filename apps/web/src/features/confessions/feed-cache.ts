import { CONFESSIONS, confessionSchema, type Confession } from '@campus/protocol';
import type { CampusDatabase } from '@campus/sync';

/** A cached row: the wire shape plus its place in the feed (ascending), as packages/sync documents. */
type Cached = Confession & { feedOrder: number };

/** 'All' pages own feedOrder 0…; rows only seen on the college tab sort after them. */
const COLLEGE_ONLY_BASE = 1_000_000;

function isCached(row: unknown): row is Cached {
  return (
    confessionSchema.safeParse(row).success && typeof (row as { feedOrder?: unknown }).feedOrder === 'number'
  );
}

/**
 * Stores a loaded feed page for offline reading. An 'All' page replaces the rows that held its slots before
 * (a confession deleted since then does not linger); a college page keeps the places rows already have.
 */
export async function cacheFeedPage(
  db: CampusDatabase,
  page: number,
  confessions: Confession[],
  allTab: boolean,
): Promise<void> {
  const first = (page - 1) * CONFESSIONS.feedPageSize;
  await db.transaction('rw', db.confessions, async () => {
    const existing = (await db.confessions.bulkGet(confessions.map((c) => c.id))) as unknown[];
    if (allTab) {
      const start = first;
      const ids = new Set(confessions.map((c) => c.id));
      const stale = (await db.confessions.toArray()).filter(
        (row: unknown) =>
          isCached(row) &&
          row.feedOrder >= start &&
          row.feedOrder < start + CONFESSIONS.feedPageSize &&
          !ids.has(row.id),
      );
      await db.confessions.bulkDelete(stale.map((row) => row.id));
    }
    const rows: Cached[] = confessions.map((confession, index) => {
      const before = existing[index];
      const order = allTab
        ? first + index
        : isCached(before)
          ? before.feedOrder
          : COLLEGE_ONLY_BASE + first + index;
      return { ...confession, feedOrder: order };
    });
    await db.confessions.bulkPut(rows);
  });
}

/** The cached feed, in feed order; only the given college's rows for the college tab. */
export async function readCachedFeed(db: CampusDatabase, college: string | null): Promise<Confession[]> {
  const rows = ((await db.confessions.toArray()) as unknown[]).filter(isCached);
  rows.sort((a, b) => a.feedOrder - b.feedOrder);
  const visible = college ? rows.filter((row) => row.college === college) : rows;
  return visible.map(({ feedOrder: _order, ...confession }) => confession);
}

export async function forgetCachedConfession(db: CampusDatabase, id: string): Promise<void> {
  await db.confessions.delete(id);
}

/** Keeps the cached copy in step with an optimistic change (reactions, comment counts). */
export async function updateCachedConfession(db: CampusDatabase, confession: Confession): Promise<void> {
  const before = (await db.confessions.get(confession.id)) as unknown;
  if (isCached(before)) await db.confessions.put({ ...confession, feedOrder: before.feedOrder });
}
