import { sql, type Kysely } from 'kysely';

/**
 * Notifications learn which confession they are about (until now only inside `data`), so deleting a
 * confession can delete its notifications by index instead of parsing every row's JSON.
 */
const UP = [
  `ALTER TABLE notifications ADD COLUMN confession_id TEXT`,
  `UPDATE notifications SET confession_id = json_extract(data, '$.confessionId')
    WHERE json_valid(data) AND json_extract(data, '$.confessionId') IS NOT NULL`,
  // Only confession notifications are indexed.
  `CREATE INDEX notifications_confession_idx ON notifications (confession_id) WHERE confession_id IS NOT NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP INDEX notifications_confession_idx').execute(db);
  await sql.raw('ALTER TABLE notifications DROP COLUMN confession_id').execute(db);
}
