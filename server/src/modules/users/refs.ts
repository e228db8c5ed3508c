import type { UserListEntry, UserRef } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { sql, type Tx } from '../../realtime/transaction';

/** The columns of `users` a UserRef is made of: the one row type every message, member and list uses. */
export interface UserRefRow {
  id: string;
  first_name: string;
  last_name: string;
  profile_picture_url: string | null;
}

/** The one mapper of a user's public reference (name and picture). */
export function toUserRef(row: UserRefRow): UserRef {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    profilePictureUrl: row.profile_picture_url,
  };
}

/** A UserRef with the last-active time (a snapshot's user list); show it to contacts only. */
export type UserListRow = UserRefRow & { last_active_at: string | null };

export function toUserListEntry(row: UserListRow): UserListEntry {
  return { ...toUserRef(row), lastActiveAt: row.last_active_at };
}

/** What the cache reads through: a transaction, or anything that runs our statements the same way. */
export type UserRefReader = Pick<Tx, 'first'>;

const refSql = sql<UserRefRow>(
  'SELECT id, first_name, last_name, profile_picture_url FROM users WHERE id = ?',
);

/** Bounded so a long-running server does not keep every user it ever saw; refilled on demand. */
const MAX_CACHED = 20_000;

/**
 * The few user fields every message carries, cached in memory so the hot path never selects a profile per
 * message: a hit is one Map lookup, a miss one primary-key read through the caller's transaction.
 * One cache per server (`userRefsOf`).
 */
export class UserRefs {
  private readonly refs = new Map<string, UserRef>();

  /** The user's UserRef, or undefined when no such user exists. */
  async get(reader: UserRefReader, userId: string): Promise<UserRef | undefined> {
    const cached = this.refs.get(userId);
    if (cached) return cached;
    const row = await reader.first(refSql, userId);
    if (!row) return undefined;
    const ref = toUserRef(row);
    if (this.refs.size >= MAX_CACHED) this.refs.clear();
    this.refs.set(userId, ref);
    return ref;
  }

  /** Call after a user's name or picture changes. */
  forget(userId: string): void {
    this.refs.delete(userId);
  }
}

const caches = new WeakMap<AppDeps, UserRefs>();

/** The server's user-ref cache. */
export function userRefsOf(deps: AppDeps): UserRefs {
  let refs = caches.get(deps);
  if (!refs) caches.set(deps, (refs = new UserRefs()));
  return refs;
}
