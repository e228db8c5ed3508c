import { sql } from 'kysely';
import type { DirectoryEntry, PublicProfile, UserDirectoryQuery } from '@campus/protocol';
import type { DB } from '../../lib/db/database';
import { toUser, toUserRef } from '../users';
import { areContacts } from './contacts';

/** LIKE treats % and _ as wildcards; a search for them means the characters themselves. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * One page of the directory: everyone but the caller, in name order ('first last', any case, then id),
 * after the student `after` when given. `q` matches part of a name, or a whole e-mail address and only a
 * whole one (addresses are stored lower-case), so nobody can list addresses by searching '@uni.edu'.
 * The order is users_directory_idx (migration 0009): a page seeks to its cursor and walks the index; a
 * name search filters on that walk (a substring cannot seek), bounded by the page size and the rate limit.
 */
export async function searchUsers(
  db: DB,
  selfId: string,
  { q, limit, after }: UserDirectoryQuery,
): Promise<DirectoryEntry[]> {
  let query = db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'profile_picture_url'])
    .where('id', '!=', selfId);
  if (q) {
    query = query.where(
      sql<boolean>`(lower(first_name || ' ' || last_name) LIKE ${likePattern(q)} ESCAPE '\\' OR email = ${q.toLowerCase()})`,
    );
  }
  if (after) {
    const cursor = await db
      .selectFrom('users')
      .select([sql<string>`lower(first_name)`.as('first'), sql<string>`lower(last_name)`.as('last')])
      .where('id', '=', after)
      .executeTakeFirst();
    // The last student of the previous page is gone (account deleted): the list cannot resume there.
    if (!cursor) return [];
    // The first condition lets SQLite seek in the index; the row value makes the order exact.
    query = query
      .where(sql<boolean>`lower(first_name) >= ${cursor.first}`)
      .where(
        sql<boolean>`(lower(first_name), lower(last_name), id) > (${cursor.first}, ${cursor.last}, ${after})`,
      );
  }
  const rows = await query
    .orderBy(sql`lower(first_name)`)
    .orderBy(sql`lower(last_name)`)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toUserRef);
}

/**
 * What another student may see of a profile: no e-mail, phone, role, documents or password. The last-active
 * time only for a contact (contacts.ts): to a stranger it is null, as it reads for someone never seen.
 */
export async function findPublicProfile(
  db: DB,
  viewerId: string,
  userId: string,
): Promise<PublicProfile | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  const user = toUser(row);
  return {
    ...toUserRef(row),
    college: user.college,
    course: user.course,
    year: user.year,
    bio: user.bio,
    lastActiveAt: (await areContacts(db, viewerId, userId)) ? user.lastActiveAt : null,
  };
}
