import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * Friends and blocks (issue 12).
 *
 * - `friend_requests`: every request ever made, its outcome kept (pending, accepted, rejected, cancelled) so a
 *   decision is not lost when the pair asks again. At most one pending request per direction (partial unique
 *   index); the recipient's list of pending requests reads a partial index on (to_id, created_at).
 * - `friendships`: one row per pair, stored ordered (user_a < user_b) so a pair has exactly one row and "are
 *   they friends" is one primary-key read; the second index lists a user's friends from the other column.
 * - `blocks`: who blocked whom. The primary key answers "did A block B" (one lookup per message) and lists a
 *   blocker's own blocks; the second index finds who blocked a user (contacts and presence leave them out).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await ddl(
    db,
    `CREATE TABLE friend_requests (
    id TEXT PRIMARY KEY,
    from_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    to_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected', 'cancelled')),
    created_at TEXT NOT NULL,
    decided_at TEXT,
    CHECK (from_id <> to_id)
  )`,
  );
  await sql`CREATE UNIQUE INDEX friend_requests_pending_pair_idx ON friend_requests (from_id, to_id)
    WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX friend_requests_incoming_idx ON friend_requests (to_id, created_at)
    WHERE status = 'pending'`.execute(db);
  await ddl(
    db,
    `CREATE TABLE friendships (
    user_a TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    user_b TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_a, user_b),
    CHECK (user_a < user_b)
  ) WITHOUT ROWID`,
  );
  await sql`CREATE INDEX friendships_user_b_idx ON friendships (user_b, user_a)`.execute(db);
  await ddl(
    db,
    `CREATE TABLE blocks (
    blocker_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id),
    CHECK (blocker_id <> blocked_id)
  ) WITHOUT ROWID`,
  );
  await sql`CREATE INDEX blocks_blocked_idx ON blocks (blocked_id, blocker_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE blocks`.execute(db);
  await sql`DROP TABLE friendships`.execute(db);
  await sql`DROP TABLE friend_requests`.execute(db);
}
