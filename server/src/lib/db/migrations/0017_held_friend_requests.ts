import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * Friend requests held back by a block (issue 12, review).
 *
 * A student whom the recipient blocked must not learn of the block from the answers to their requests: an
 * unblocked pair answers a repeat `alreadySent`, so a blocked one must too. `held_friend_requests` is the
 * sender's pending request as the sender was told it exists, kept apart from `friend_requests` so the
 * blocker never sees it (no list, change or notification reads this table). One row per direction, as
 * `friend_requests` keeps one pending request per direction. When the block ends, a held request becomes a
 * real one (modules/friends/blocks.ts); the sender blocking the recipient withdraws it.
 *
 * The primary key answers "did they already ask" (one lookup per request and per block); the second index
 * serves the cascade when a recipient's account is deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await ddl(
    db,
    `CREATE TABLE held_friend_requests (
    from_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    to_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (from_id, to_id),
    CHECK (from_id <> to_id)
  ) WITHOUT ROWID`,
  );
  await sql`CREATE INDEX held_friend_requests_to_idx ON held_friend_requests (to_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE held_friend_requests`.execute(db);
}
