import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * Blocks made from a random room (issue 13): a student blocks a partner whose identity they never learnt.
 * A friends-module block would name the partner to the blocker (its `block_changed` change and the blocked
 * list carry the user's card), so a room's Block and Report keep these apart: never listed, never sent to a
 * client, read only by the matchmaker (never match the two again) and by the room's Add Friend. One row per
 * direction; gone with either account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await ddl(
    db,
    `CREATE TABLE random_blocks (
    blocker_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    blocked_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id)
  ) WITHOUT ROWID`,
  );
  // Who blocked this student: the other half of "either way" at queue time.
  await sql`CREATE INDEX random_blocks_blocked_idx ON random_blocks (blocked_id, blocker_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE random_blocks`.execute(db);
}
