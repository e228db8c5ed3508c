import type { EntityTable } from 'dexie';
import {
  blocksResponseSchema,
  friendRequestsResponseSchema,
  friendsNextPath,
  friendsResponseSchema,
  type BlockedUser,
  type Friend,
  type FriendRequest,
} from '@campus/protocol';
import { syncTables, type CampusDatabase } from '../../database';
import type { RestContext } from '../../feature-contract';
import { readCursor } from '../../meta';
import { touchedAfter, type FriendsTable } from './touched';

async function getPage(ctx: RestContext, path: string): Promise<{ body: unknown; next?: string }> {
  const res = await ctx.fetchImpl(`${ctx.baseUrl}${path}`, {
    headers: { Authorization: `Bearer ${ctx.token}` },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return { body: await res.json(), next: friendsNextPath(res.headers.get('Link')) };
}

/** Every page of a keyset list (friends, blocks), following each answer's `Link: <…>; rel="next"`. */
async function getAllPages<T>(ctx: RestContext, path: string, parse: (body: unknown) => T[]): Promise<T[]> {
  const rows: T[] = [];
  const seen = new Set<string>();
  for (let next: string | undefined = path; next !== undefined;) {
    // A server that names a page twice would keep this going for ever.
    if (seen.has(next)) throw new Error(`${path}: the next page repeats`);
    seen.add(next);
    const page: { body: unknown; next?: string } = await getPage(ctx, next);
    rows.push(...parse(page.body));
    next = page.next;
  }
  return rows;
}

/** One load at a time per database here, so a later load never stores before an earlier one. */
const loads = new WeakMap<CampusDatabase, Promise<void>>();

/**
 * Friends, incoming requests and blocks through REST, every page, replacing the cache (after a `sync_reset`,
 * whose snapshot does not carry them, and whenever a screen reloads). The answers may predate a change
 * applied while they were out (a block, a request): a row such a change touched keeps what the change made.
 * What this device changed and has not sent yet wins too: a request answered here stays answered, a block
 * or unblock queued here stays.
 */
export function loadFriendsState(ctx: RestContext): Promise<void> {
  const load = (loads.get(ctx.db) ?? Promise.resolve()).catch(() => undefined).then(() => loadOnce(ctx));
  loads.set(ctx.db, load);
  return load;
}

async function loadOnce(ctx: RestContext): Promise<void> {
  // Changes up to here are in the cache; any applied later touch rows the answers may not have seen.
  const since = await readCursor(ctx.db);
  const [friends, requests, blocks] = await Promise.all([
    getAllPages(ctx, '/api/users/friends', (b) => friendsResponseSchema.parse(b)),
    getPage(ctx, '/api/users/friends/requests').then(({ body }) => friendRequestsResponseSchema.parse(body)),
    getAllPages(ctx, '/api/users/blocks', (b) => blocksResponseSchema.parse(b)),
  ]);
  await storeFriendsState(ctx.db, since, friends, requests, blocks);
}

/** The table becomes `rows`, except the rows `keep` names, which stay as cached (or absent). */
async function replace<T extends { id: string }>(
  table: EntityTable<T, 'id'>,
  rows: readonly T[],
  keep: (id: string) => boolean,
): Promise<void> {
  const cached = await table.toCollection().primaryKeys();
  await table.bulkDelete(cached.filter((id) => !keep(id)));
  await table.bulkPut(rows.filter((row) => !keep(row.id)));
}

async function storeFriendsState(
  db: CampusDatabase,
  since: number,
  friends: readonly Friend[],
  requests: readonly FriendRequest[],
  blocks: readonly BlockedUser[],
): Promise<void> {
  await db.transaction('rw', syncTables(db), async () => {
    const touched = await touchedAfter(db, since);
    const queued = (await db.outbox.toArray()).map((row) => row.frame);
    const decided = new Set(queued.flatMap((f) => (f.type === 'decide_friend_request' ? [f.requestId] : [])));
    const blocking = new Set(queued.flatMap((f) => (f.type === 'block_user' ? [f.userId] : [])));
    const unblocking = new Set(queued.flatMap((f) => (f.type === 'unblock_user' ? [f.userId] : [])));
    // Rows whose cached state wins over the answer, present or absent.
    const keep: Record<FriendsTable, (id: string) => boolean> = {
      friends: (id) => blocking.has(id) || touched('friends', id),
      friendRequests: (id) => decided.has(id) || touched('friendRequests', id),
      blocks: (id) => blocking.has(id) || unblocking.has(id) || touched('blocks', id),
    };
    await replace(
      db.friends,
      friends.map((f) => ({
        id: f.id,
        firstName: f.firstName,
        lastName: f.lastName,
        profilePictureUrl: f.profilePictureUrl,
      })),
      keep.friends,
    );
    await replace(db.friendRequests, requests, keep.friendRequests);
    await replace(
      db.blocks,
      blocks.map((b) => ({ ...b.user, blockedAt: b.blockedAt })),
      keep.blocks,
    );
  });
}
