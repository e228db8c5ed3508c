import { CONFESSIONS, type Confession } from '@campus/protocol';
import type { CampusDatabase, LocalConfession, SyncClient } from '@campus/sync';

/**
 * The sync client's own store for REST-loaded cards, once it offers it: it keeps this device's queued
 * reactions and comments on top of the server's rows.
 */
type MaybeCachingClient = SyncClient & {
  cacheConfessions?: (rows: readonly LocalConfession[]) => Promise<void>;
};

/** 'All' pages own feedOrder 0…; rows only seen on the college tab sort after them. */
const COLLEGE_ONLY_BASE = 1_000_000;

/**
 * Stores a loaded feed page for offline reading, in ascending feedOrder as packages/sync documents. An
 * 'All' page replaces the rows that held its slots before (a confession deleted since then does not
 * linger); a college page keeps the places rows already have. Optimistic posts (below 0) are left alone.
 */
export async function cacheFeedPage(
  client: MaybeCachingClient,
  page: number,
  confessions: Confession[],
  allTab: boolean,
): Promise<void> {
  const { db } = client;
  const first = (page - 1) * CONFESSIONS.feedPageSize;
  const rows = await db.transaction('rw', db.confessions, async () => {
    const existing = await db.confessions.bulkGet(confessions.map((c) => c.id));
    if (allTab) {
      const ids = new Set(confessions.map((c) => c.id));
      const stale = await db.confessions
        .where('feedOrder')
        .between(first, first + CONFESSIONS.feedPageSize)
        .primaryKeys();
      await db.confessions.bulkDelete(stale.filter((id) => !ids.has(id)));
    }
    return confessions.map((confession, index): LocalConfession => {
      const before = existing[index];
      const feedOrder = allTab ? first + index : (before?.feedOrder ?? COLLEGE_ONLY_BASE + first + index);
      return { ...confession, feedOrder };
    });
  });
  if (client.cacheConfessions) await client.cacheConfessions(rows);
  else await db.confessions.bulkPut(rows);
}

/** The cached feed, in feed order; only the given college's rows for the college tab. */
export async function readCachedFeed(db: CampusDatabase, college: string | null): Promise<Confession[]> {
  const rows = await db.confessions.orderBy('feedOrder').toArray();
  const visible = college ? rows.filter((row) => row.college === college) : rows;
  return visible.map(({ feedOrder: _order, ...confession }) => confession);
}

export async function forgetCachedConfession(db: CampusDatabase, id: string): Promise<void> {
  await db.confessions.delete(id);
}

/** Keeps the cached copy in step with an optimistic change (reactions, comment counts). */
export async function updateCachedConfession(db: CampusDatabase, confession: Confession): Promise<void> {
  await db.confessions.update(confession.id, { ...confession });
}
