import type SQLite from 'better-sqlite3';
import type { UserRef } from '@campus/protocol';

interface RefRow {
  id: string;
  first_name: string;
  last_name: string;
  profile_picture_url: string | null;
}

/** Bounded so a long-running server does not keep every user it ever saw; refilled on demand. */
const MAX_CACHED = 20_000;

/**
 * The few user fields every message carries, cached in memory so the hot path never selects a profile per
 * message. One cache per database handle.
 */
class UserRefCache {
  private readonly refs = new Map<string, UserRef>();
  private readonly select: SQLite.Statement<[string], RefRow>;

  constructor(sqlite: SQLite.Database) {
    this.select = sqlite.prepare(
      'SELECT id, first_name, last_name, profile_picture_url FROM users WHERE id = ?',
    );
  }

  get(userId: string): UserRef | undefined {
    const cached = this.refs.get(userId);
    if (cached) return cached;
    const row = this.select.get(userId);
    if (!row) return undefined;
    const ref: UserRef = {
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      profilePictureUrl: row.profile_picture_url,
    };
    if (this.refs.size >= MAX_CACHED) this.refs.clear();
    this.refs.set(userId, ref);
    return ref;
  }

  forget(userId: string): void {
    this.refs.delete(userId);
  }
}

const caches = new WeakMap<SQLite.Database, UserRefCache>();

function cacheFor(sqlite: SQLite.Database): UserRefCache {
  let cache = caches.get(sqlite);
  if (!cache) caches.set(sqlite, (cache = new UserRefCache(sqlite)));
  return cache;
}

/** The user's UserRef, or undefined when no such user exists. */
export function userRef(sqlite: SQLite.Database, userId: string): UserRef | undefined {
  return cacheFor(sqlite).get(userId);
}

/** Call after a user's name or picture changes. */
export function forgetUserRef(sqlite: SQLite.Database, userId: string): void {
  cacheFor(sqlite).forget(userId);
}
