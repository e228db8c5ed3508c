import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * Chat, groups, attachments, the realtime change log and group notes.
 * Raw SQL because SQLite's WITHOUT ROWID and partial indexes matter here and the builder cannot say them;
 * PostgreSQL gets the same statements through dialect.ts's postgresDdl.
 * Every list query of the chat has its index named beside it.
 */
const UP = [
  // Direct messages. `pair` is "<smaller id>:<larger id>": one index serves a conversation's pages.
  `CREATE TABLE direct_messages (
     id TEXT PRIMARY KEY,
     pair TEXT NOT NULL,
     sender_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     recipient_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     content TEXT NOT NULL,
     created_at TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'sent',
     reply_to TEXT,
     attachment_key TEXT,
     attachment_type TEXT,
     seq INTEGER NOT NULL
   )`,
  // GET /api/chat/{partnerId}: newest first by seq within the pair.
  `CREATE INDEX direct_messages_pair_seq_idx ON direct_messages (pair, seq)`,
  // Delivery receipts on connect: what is still 'sent' to me.
  `CREATE INDEX direct_messages_undelivered_idx ON direct_messages (recipient_id, seq) WHERE status = 'sent'`,

  `CREATE TABLE message_reactions (
     message_id TEXT NOT NULL REFERENCES direct_messages(id) ON DELETE CASCADE,
     user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     emoji TEXT NOT NULL,
     PRIMARY KEY (message_id, user_id)
   ) WITHOUT ROWID`,

  // One row per user and partner: the Talk home list without scanning messages.
  `CREATE TABLE direct_conversations (
     user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     peer_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     last_message_id TEXT NOT NULL,
     last_seq INTEGER NOT NULL,
     unread_count INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (user_id, peer_id)
   ) WITHOUT ROWID`,
  `CREATE INDEX direct_conversations_recent_idx ON direct_conversations (user_id, last_seq)`,

  `CREATE TABLE groups (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     created_by TEXT NOT NULL REFERENCES users(id),
     created_at TEXT NOT NULL,
     avatar_url TEXT,
     last_message_id TEXT,
     last_seq INTEGER NOT NULL DEFAULT 0
   )`,
  `CREATE TABLE group_members (
     group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
     user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     joined_at TEXT NOT NULL,
     read_seq INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (group_id, user_id)
   ) WITHOUT ROWID`,
  // A user's groups (membership checks, pulls, the Talk home list).
  `CREATE INDEX group_members_user_idx ON group_members (user_id, group_id)`,

  `CREATE TABLE group_messages (
     id TEXT PRIMARY KEY,
     group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
     sender_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     content TEXT NOT NULL,
     created_at TEXT NOT NULL,
     attachment_key TEXT,
     attachment_type TEXT,
     seq INTEGER NOT NULL
   )`,
  `CREATE INDEX group_messages_group_seq_idx ON group_messages (group_id, seq)`,

  // Uploaded files. `scope` is who may be handed a signed URL: "pair:<a>:<b>" or "group:<id>".
  `CREATE TABLE attachments (
     key TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     scope TEXT NOT NULL,
     content_type TEXT NOT NULL,
     size INTEGER NOT NULL,
     file_name TEXT NOT NULL,
     created_at TEXT NOT NULL
   )`,

  // The change log: every persistent event once, pre-serialised, with the audiences that may read it.
  `CREATE TABLE change_log (
     seq INTEGER PRIMARY KEY,
     type TEXT NOT NULL,
     payload TEXT NOT NULL,
     created_ms INTEGER NOT NULL
   )`,
  // Audience is "u:<userId>" or "g:<groupId>". A pull reads (audience, seq > cursor) for each audience.
  `CREATE TABLE change_audience (
     audience TEXT NOT NULL,
     seq INTEGER NOT NULL,
     PRIMARY KEY (audience, seq)
   ) WITHOUT ROWID`,

  // Exactly-once: the last mutation id applied per device, and the refusals to answer again on a resend.
  `CREATE TABLE device_mutations (
     device_id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     last_mid INTEGER NOT NULL,
     updated_ms INTEGER NOT NULL
   ) WITHOUT ROWID`,
  `CREATE TABLE mutation_rejects (
     device_id TEXT NOT NULL,
     mid INTEGER NOT NULL,
     error TEXT NOT NULL,
     context TEXT NOT NULL,
     created_ms INTEGER NOT NULL,
     PRIMARY KEY (device_id, mid)
   ) WITHOUT ROWID`,

  // Group notes: Yjs updates appended as they arrive, compacted into one row now and then.
  `CREATE TABLE group_notes_updates (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
     update_data BLOB NOT NULL,
     created_ms INTEGER NOT NULL
   )`,
  `CREATE INDEX group_notes_updates_group_idx ON group_notes_updates (group_id, id)`,
];

const DOWN = [
  'group_notes_updates',
  'mutation_rejects',
  'device_mutations',
  'change_audience',
  'change_log',
  'attachments',
  'group_messages',
  'group_members',
  'groups',
  'direct_conversations',
  'message_reactions',
  'direct_messages',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await ddl(db, statement);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of DOWN) await sql.raw(`DROP TABLE ${table}`).execute(db);
}
