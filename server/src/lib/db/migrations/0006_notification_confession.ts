import { sql, type Kysely } from 'kysely';
import { ddl, dialectOf } from './dialect';

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
  if (dialectOf(db) === 'sqlite') {
    for (const statement of UP) await sql.raw(statement).execute(db);
    return;
  }
  await ddl(db, UP[0]!);
  await backfillInJs(db);
  await sql.raw(UP[2]!).execute(db);
}

/**
 * PostgreSQL 15 has no json_valid (a cast of malformed JSON aborts the statement), so the backfill parses
 * `data` here, skipping what is not a JSON object, as the SQLite statement does.
 */
async function backfillInJs(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{ id: string; data: string }>`
    SELECT id, data FROM notifications WHERE data LIKE '%confessionId%'`.execute(db);
  for (const row of rows.rows) {
    let id: unknown;
    try {
      const data: unknown = JSON.parse(row.data);
      id =
        data !== null && typeof data === 'object'
          ? (data as Record<string, unknown>).confessionId
          : undefined;
    } catch {
      continue;
    }
    if (id === undefined || id === null) continue;
    const value = typeof id === 'string' ? id : JSON.stringify(id);
    await sql`UPDATE notifications SET confession_id = ${value} WHERE id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP INDEX notifications_confession_idx').execute(db);
  await sql.raw('ALTER TABLE notifications DROP COLUMN confession_id').execute(db);
}
