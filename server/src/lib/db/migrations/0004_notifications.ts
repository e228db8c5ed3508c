import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * Notifications (the bell's list and unread count) and web-push subscriptions.
 * Raw SQL for the partial index, as in 0002.
 */
const UP = [
  `CREATE TABLE notifications (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     type TEXT NOT NULL,
     title TEXT NOT NULL,
     body TEXT NOT NULL,
     data TEXT NOT NULL DEFAULT '{}',
     created_at TEXT NOT NULL,
     is_read INTEGER NOT NULL DEFAULT 0
   )`,
  // GET /api/notifications: a user's newest first (rowid breaks ties within one millisecond).
  `CREATE INDEX notifications_user_created_idx ON notifications (user_id, created_at)`,
  // The unread count, asked on every load: only unread rows are indexed.
  `CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE is_read = 0`,

  // A browser's subscription belongs to whoever registered it last on that browser.
  `CREATE TABLE push_subscriptions (
     endpoint TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     p256dh TEXT NOT NULL,
     auth TEXT NOT NULL,
     created_at TEXT NOT NULL
   )`,
  // A user's subscriptions when a push goes out, oldest first when the cap drops some.
  `CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id, created_at)`,
];

const DOWN = ['push_subscriptions', 'notifications'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await ddl(db, statement);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of DOWN) await sql.raw(`DROP TABLE ${table}`).execute(db);
}
