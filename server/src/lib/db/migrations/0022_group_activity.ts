import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * A group's last activity is read from its messages (issue 14), no longer written on its row by every
 * message. groups.last_message_id and groups.last_seq were updated in each send's transaction: one more
 * page in every commit's WAL (about one in ten on SQLite) and, on PostgreSQL, one row that every message of
 * a group updates, leaving a dead version each time. The newest message is one seek on
 * group_messages_group_seq_idx (group_id, seq) wherever the activity is read (the Talk home list, the
 * snapshot, a member's read mark), so nothing else needs it.
 *
 * What stays on the row is the seq a group sorts by before its first message: `created_seq` (the
 * `group_joined` change of its creation). A group made before this migration keeps the seq it had, its
 * last message's or its creation's, which orders it the same: activity = its newest message's seq, else
 * created_seq.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE groups RENAME COLUMN last_seq TO created_seq`.execute(db);
  await sql`ALTER TABLE groups DROP COLUMN last_message_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE groups RENAME COLUMN created_seq TO last_seq`.execute(db);
  await ddl(db, 'ALTER TABLE groups ADD COLUMN last_message_id TEXT');
  await sql`UPDATE groups SET
      last_message_id = (SELECT m.id FROM group_messages m WHERE m.group_id = groups.id ORDER BY m.seq DESC LIMIT 1),
      last_seq = coalesce((SELECT max(m.seq) FROM group_messages m WHERE m.group_id = groups.id), last_seq)`.execute(
    db,
  );
}
