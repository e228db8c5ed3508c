import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * Call history (issue 12). `call_logs`: one row per call the server placed (refused offers are not calls),
 * written by the server when the call ends; clients never write it. `callee_hidden` = 1 when the callee had
 * blocked the caller: the call never reached them, so it is the caller's row only. A user's history reads
 * two index ranges newest first: as caller (call_logs_caller_idx) and as callee, hidden rows left out by the
 * partial index itself (call_logs_callee_idx).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await ddl(
    db,
    `CREATE TABLE call_logs (
    id TEXT PRIMARY KEY,
    caller_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    callee_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    call_type TEXT NOT NULL CHECK (call_type IN ('audio', 'video')),
    status TEXT NOT NULL
      CHECK (status IN ('completed', 'missed', 'no_answer', 'rejected', 'cancelled', 'failed')),
    started_at TEXT NOT NULL,
    duration INTEGER NOT NULL DEFAULT 0 CHECK (duration >= 0),
    callee_hidden INTEGER NOT NULL DEFAULT 0 CHECK (callee_hidden IN (0, 1)),
    CHECK (caller_id <> callee_id)
  )`,
  );
  await sql`CREATE INDEX call_logs_caller_idx ON call_logs (caller_id, started_at, id)`.execute(db);
  await sql`CREATE INDEX call_logs_callee_idx ON call_logs (callee_id, started_at, id)
    WHERE callee_hidden = 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE call_logs`.execute(db);
}
