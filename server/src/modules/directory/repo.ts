import { sql } from 'kysely';
import type { PublicProfile, UserListEntry } from '@campus/protocol';
import type { DB } from '../../lib/db/database';
import { toUserListEntry, toUserRef } from '../chat/mappers';
import { toUser } from '../users/repo';

/** LIKE treats % and _ as wildcards; a search for them means the characters themselves. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * The directory: everyone but the caller, by name ('first last') or e-mail containing `q`, case-insensitive
 * (the same rule as the client's member search), sorted by name, at most `limit`.
 * A substring search cannot use a B-tree index; the LIMIT bounds the work to one pass over users.
 */
export async function searchUsers(
  db: DB,
  selfId: string,
  q: string | undefined,
  limit: number,
): Promise<UserListEntry[]> {
  let query = db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'profile_picture_url', 'email', 'last_active_at'])
    .where('id', '!=', selfId);
  if (q) {
    const pattern = likePattern(q);
    query = query.where(
      sql<boolean>`(lower(first_name || ' ' || last_name) LIKE ${pattern} ESCAPE '\\' OR lower(email) LIKE ${pattern} ESCAPE '\\')`,
    );
  }
  const rows = await query
    .orderBy((eb) => eb.fn('lower', ['first_name']))
    .orderBy((eb) => eb.fn('lower', ['last_name']))
    .limit(limit)
    .execute();
  return rows.map(toUserListEntry);
}

/** What another student may see of a profile: no phone, role, documents or password. */
export async function findPublicProfile(db: DB, userId: string): Promise<PublicProfile | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  const user = toUser(row);
  return {
    ...toUserRef(row),
    email: user.email,
    college: user.college,
    course: user.course,
    year: user.year,
    bio: user.bio,
    lastActiveAt: user.lastActiveAt,
  };
}
