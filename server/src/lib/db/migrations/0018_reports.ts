import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * Reports and the restrictions they lead to (issue 13, "Safety").
 *
 * - `reports`: who reported whom, from where (`context_kind` with `context_ref`: the random room's id, the
 *   call log's id, or NULL when the context is the reported user themselves), why, and for text rooms the last
 *   relayed messages (`evidence`, JSON, kept only here). An admin decides an open report once: `status`
 *   becomes upheld (warn, suspend_random, suspend_account) or dismissed, with who, when and why. A reporter's
 *   deleted account leaves the report (reporter_id NULL); the reported user's takes its reports along.
 * - `user_restrictions`: one row per restricted user. `random_suspended_until` and `account_suspended_until`
 *   are ISO instants (a permanent suspension is far in the future); `random_review_hold` closes random talk
 *   until an admin clears it (set automatically by several reporters); `hold_cleared_at` is when an admin last
 *   cleared it: reports from before it no longer count towards a new automatic hold.
 * - `moderation_log`: each decision, automatic hold and clearing, never updated (the detail's history).
 *
 * Indexes: the queue reads open reports oldest first (reports_queue_idx) and decided ones newest decision
 * first (reports_decided_idx), both in keyset pages; reports_reported_idx serves the per-user counts and the
 * automatic hold's windows; reports_reporter_idx the hourly limit (and the reporter's deletion).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await ddl(
    db,
    `CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter_id TEXT REFERENCES users (id) ON DELETE SET NULL,
    reported_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    context_kind TEXT NOT NULL CHECK (context_kind IN ('random_room', 'chat', 'call', 'friend')),
    context_ref TEXT,
    reason TEXT NOT NULL
      CHECK (reason IN ('harassment', 'nudity', 'hate', 'spam', 'underage', 'other')),
    note TEXT,
    evidence TEXT,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'upheld', 'dismissed')),
    created_at TEXT NOT NULL,
    decided_by TEXT REFERENCES users (id) ON DELETE SET NULL,
    decided_at TEXT,
    decision TEXT CHECK (decision IN ('warn', 'suspend_random', 'suspend_account', 'dismiss')),
    decision_days INTEGER,
    decision_until TEXT,
    decision_note TEXT,
    CHECK (reporter_id IS NULL OR reporter_id <> reported_id),
    CHECK ((status = 'open') = (decision IS NULL)),
    CHECK ((status = 'open') = (decided_at IS NULL)),
    CHECK (status <> 'dismissed' OR decision = 'dismiss'),
    CHECK (status <> 'upheld' OR decision <> 'dismiss')
  )`,
  );
  await sql`CREATE INDEX reports_queue_idx ON reports (status, created_at, id)`.execute(db);
  await sql`CREATE INDEX reports_decided_idx ON reports (status, decided_at, id)
    WHERE status <> 'open'`.execute(db);
  await sql`CREATE INDEX reports_reported_idx ON reports (reported_id, created_at)`.execute(db);
  await sql`CREATE INDEX reports_reporter_idx ON reports (reporter_id, created_at)`.execute(db);
  await sql`CREATE INDEX reports_decided_by_idx ON reports (decided_by) WHERE decided_by IS NOT NULL`.execute(
    db,
  );

  await ddl(
    db,
    `CREATE TABLE user_restrictions (
    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    random_suspended_until TEXT,
    random_review_hold INTEGER NOT NULL DEFAULT 0 CHECK (random_review_hold IN (0, 1)),
    hold_cleared_at TEXT,
    account_suspended_until TEXT,
    updated_at TEXT NOT NULL
  ) WITHOUT ROWID`,
  );

  await ddl(
    db,
    `CREATE TABLE moderation_log (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    actor_id TEXT REFERENCES users (id) ON DELETE SET NULL,
    action TEXT NOT NULL CHECK (action IN
      ('warn', 'suspend_random', 'suspend_account', 'dismiss', 'auto_hold', 'clear_hold')),
    report_id TEXT REFERENCES reports (id) ON DELETE SET NULL,
    until TEXT,
    note TEXT,
    created_at TEXT NOT NULL
  )`,
  );
  await sql`CREATE INDEX moderation_log_user_idx ON moderation_log (user_id, created_at)`.execute(db);
  await sql`CREATE INDEX moderation_log_actor_idx ON moderation_log (actor_id) WHERE actor_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX moderation_log_report_idx ON moderation_log (report_id) WHERE report_id IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE moderation_log`.execute(db);
  await sql`DROP TABLE user_restrictions`.execute(db);
  await sql`DROP TABLE reports`.execute(db);
}
