import { CONFESSIONS, type Confession } from '@campus/protocol';
import type { CampusDatabase, LocalConfession, SyncClient } from '@campus/sync';

/** 'All' pages own feedOrder 0…; rows only seen on the college tab sort after them. */
const COLLEGE_ONLY_BASE = 1_000_000;

/** The rows one tab shows, in feed order: every row for 'All', that college's rows for 'Your College'. */
export function tabRows<T extends Confession>(rows: readonly T[], college: string | null): T[] {
  return college === null ? [...rows] : rows.filter((row) => row.college === college);
}

/**
 * The cached rows a loaded page proves gone: those of the tab that held the page's places in the cached
 * order (every place after it too when the page is the last) and are not in it. Left alone: rows still
 * queued here (`pending`, the server has not seen them yet) and, above page 1, rows newer than its newest
 * (posted live after the server answered).
 */
function staleRows(
  cached: readonly LocalConfession[],
  page: number,
  confessions: readonly Confession[],
): string[] {
  const size = CONFESSIONS.feedPageSize;
  const ids = new Set(confessions.map((c) => c.id));
  const newest = confessions.reduce((max, c) => (c.createdAt > max ? c.createdAt : max), '');
  const settled = cached.filter((row) => !row.pending && !(page === 1 && newest && row.createdAt > newest));
  const to = confessions.length < size ? settled.length : page * size;
  return settled.slice((page - 1) * size, to).flatMap((row) => (ids.has(row.id) ? [] : [row.id]));
}

/**
 * Loads a REST feed page into the local cache, which the feed renders from (ascending feedOrder, as
 * packages/sync documents). An 'All' page gives its rows their places (page - 1) * 10 + index; a college
 * page keeps the places rows already have. Rows the page proves gone leave the cache (a confession deleted
 * while this device was away longer than the change log keeps).
 */
export async function cacheFeedPage(
  client: SyncClient,
  page: number,
  confessions: readonly Confession[],
  college: string | null,
  /** Collects the ids the page removed, inside the transaction: any live answer after it sees them. */
  removed?: Set<string>,
): Promise<void> {
  const { db } = client;
  const first = (page - 1) * CONFESSIONS.feedPageSize;
  const rows = await db.transaction('rw', db.confessions, async () => {
    const cached = tabRows(await db.confessions.orderBy('feedOrder').toArray(), college);
    const stale = staleRows(cached, page, confessions);
    stale.forEach((id) => removed?.add(id));
    await db.confessions.bulkDelete(stale);
    const existing = await db.confessions.bulkGet(confessions.map((c) => c.id));
    return confessions.map((confession, index): LocalConfession => {
      const before = existing[index];
      const feedOrder =
        college === null ? first + index : (before?.feedOrder ?? COLLEGE_ONLY_BASE + first + index);
      return { ...confession, feedOrder };
    });
  });
  // The sync client keeps this device's queued reactions and comments on top of the server's rows.
  await client.cacheConfessions(rows);
}

/** Every cached confession in feed order, for the live query the feed renders from. */
export function readCachedFeed(db: CampusDatabase): Promise<LocalConfession[]> {
  return db.confessions.orderBy('feedOrder').toArray();
}
