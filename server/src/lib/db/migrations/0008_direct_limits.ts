import { sql, type Kysely } from 'kysely';
import { ddl, dialectOf, type Dialect } from './dialect';

/** The conversation's pair key, "<smaller id>:<larger id>" as in direct_messages.pair (directRoomId). */
const PAIR = `CASE WHEN direct_conversations.user_id < direct_conversations.peer_id
  THEN direct_conversations.user_id || ':' || direct_conversations.peer_id
  ELSE direct_conversations.peer_id || ':' || direct_conversations.user_id END`;

/**
 * The direct-message limits (modules/chat/direct-limits.ts) read two counters kept on each user's
 * conversation row, so a send costs primary-key lookups, never a count over the messages:
 * - sent_count: messages this user sent in the chat (the peer's row at 0 means they never replied);
 * - started_ms: when this user sent the chat's first message (null when the peer started it), indexed per
 *   user for the hourly count of new conversations.
 * Existing chats are backfilled from their messages (direct_messages_pair_seq_idx), once.
 */
const COLUMNS = [
  `ALTER TABLE direct_conversations ADD COLUMN sent_count INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE direct_conversations ADD COLUMN started_ms INTEGER`,
];

/** An ISO created_at as epoch ms: SQLite through the Julian day, PostgreSQL through timestamptz. */
const MS: Record<Dialect, string> = {
  sqlite: 'CAST(round((julianday(m.created_at) - 2440587.5) * 86400000) AS INTEGER)',
  postgres: 'CAST(round(extract(epoch FROM m.created_at::timestamptz) * 1000) AS BIGINT)',
};

const backfill = (dialect: Dialect) => [
  `UPDATE direct_conversations SET sent_count = (
     SELECT count(*) FROM direct_messages m WHERE m.pair = ${PAIR} AND m.sender_id = direct_conversations.user_id
   )`,
  `UPDATE direct_conversations SET started_ms = (
     SELECT ${MS[dialect]} FROM direct_messages m
      WHERE m.pair = ${PAIR} AND m.sender_id = direct_conversations.user_id
        AND m.seq = (SELECT min(f.seq) FROM direct_messages f WHERE f.pair = ${PAIR})
   )`,
  `CREATE INDEX direct_conversations_started_idx ON direct_conversations (user_id, started_ms)
     WHERE started_ms IS NOT NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of COLUMNS) await ddl(db, statement);
  for (const statement of backfill(dialectOf(db))) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP INDEX direct_conversations_started_idx').execute(db);
  await sql.raw('ALTER TABLE direct_conversations DROP COLUMN started_ms').execute(db);
  await sql.raw('ALTER TABLE direct_conversations DROP COLUMN sent_count').execute(db);
}
