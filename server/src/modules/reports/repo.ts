import { perDialect, type Dialect } from '../../lib/db/portable-sql';
import { sql, type ReadTx, type Sql, type Tx } from '../../realtime/transaction';
import type { ModerationLogRow, ReportedCountsRow, ReportListRow, ReportRow, RestrictionRow } from './rows';

/**
 * The reports module's statements, through the engine's `Tx` (portable SQL, `?` placeholders in order). Each
 * read names the index of migration 0018 it runs on (migration-0018.test.ts plans them).
 */

const REPORT_COLUMNS = `id, reporter_id, reported_id, context_kind, context_ref, reason, note, evidence, status,
  created_at, decided_by, decided_at, decision, decision_days, decision_until, decision_note`;

/**
 * How many messages the evidence holds (the list leaves the evidence itself out). JSON is each database's
 * own: SQLite's json_array_length reads 0 for what is not an array, as the PostgreSQL form does.
 */
const evidenceCount = (dialect: Dialect) =>
  dialect === 'postgres'
    ? `(SELECT CASE WHEN json_typeof(e.m) = 'array' THEN json_array_length(e.m) ELSE 0 END
          FROM (SELECT r.evidence::json -> 'messages' AS m) e)`
    : `COALESCE(json_array_length(r.evidence, '$.messages'), 0)`;

/** A report with both cards and the deciding admin's name, for the queue and the detail. */
const listSelect = (dialect: Dialect) => `SELECT r.id, r.reporter_id, r.reported_id, r.context_kind,
    r.context_ref, r.reason, r.note, NULL AS evidence, r.status, r.created_at, r.decided_by, r.decided_at,
    r.decision, r.decision_days, r.decision_until, r.decision_note,
    ${evidenceCount(dialect)} AS evidence_count,
    a.first_name AS reporter_first_name, a.last_name AS reporter_last_name,
    a.profile_picture_url AS reporter_picture,
    d.first_name AS reported_first_name, d.last_name AS reported_last_name,
    d.profile_picture_url AS reported_picture,
    m.first_name AS admin_first_name, m.last_name AS admin_last_name
  FROM reports r
  JOIN users d ON d.id = r.reported_id
  LEFT JOIN users a ON a.id = r.reporter_id
  LEFT JOIN users m ON m.id = r.decided_by`;

export const reportStatements = {
  insert: sql(`INSERT INTO reports (${REPORT_COLUMNS}) VALUES
    (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, NULL, NULL, NULL, NULL, NULL, NULL)`),
  byId: sql<ReportRow>(`SELECT ${REPORT_COLUMNS} FROM reports WHERE id = ?`),
  /** Reports a reporter filed since an instant (reports_reporter_idx): the hourly limit. */
  filedSince: sql<{ n: number }>(
    'SELECT COUNT(*) AS n FROM reports WHERE reporter_id = ? AND created_at > ?',
  ),
  /** Only an open report is decided: two admins at once get one decision. */
  decide: sql(`UPDATE reports SET status = ?, decision = ?, decision_days = ?, decision_until = ?,
    decision_note = ?, decided_by = ?, decided_at = ? WHERE id = ? AND status = 'open'`),
  /**
   * Distinct reporters of the user's reports of one status filed since an instant (reports_reported_idx):
   * the automatic hold. An open report counts only from a verified (or exempt) reporter who met the user in
   * a random room, a chat or a call: throwaway accounts must not be able to hold anyone out of random talk.
   * An upheld one counts whoever filed it (an admin read it). Parameters: reported id, since, status.
   */
  distinctReporters: sql<{ n: number }>(
    `SELECT COUNT(DISTINCT r.reporter_id) AS n FROM reports r JOIN users u ON u.id = r.reporter_id
      WHERE r.reported_id = ? AND r.created_at > ? AND r.status = ?
        AND (r.status = 'upheld'
             OR (u.document_status IN ('verified', 'not_required')
                 AND r.context_kind IN ('random_room', 'chat', 'call')))`,
  ),
  counts: sql<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM reports GROUP BY status'),
  restriction: sql<RestrictionRow>(
    `SELECT user_id, random_suspended_until, random_review_hold, hold_cleared_at, account_suspended_until,
            updated_at
       FROM user_restrictions WHERE user_id = ?`,
  ),
  ensureRestriction: sql(
    `INSERT INTO user_restrictions (user_id, random_review_hold, updated_at) VALUES (?, 0, ?)
     ON CONFLICT (user_id) DO NOTHING`,
  ),
  /**
   * Parameters: until, until, updated at, user. A later end wins over an earlier one, never the reverse
   * (a CASE: SQLite's two-argument max() is not PostgreSQL's).
   */
  suspendRandom: sql(
    `UPDATE user_restrictions SET random_suspended_until =
       CASE WHEN random_suspended_until IS NULL OR random_suspended_until < ? THEN ? ELSE random_suspended_until END,
       updated_at = ? WHERE user_id = ?`,
  ),
  suspendAccount: sql(
    `UPDATE user_restrictions SET account_suspended_until =
       CASE WHEN account_suspended_until IS NULL OR account_suspended_until < ? THEN ? ELSE account_suspended_until END,
       updated_at = ? WHERE user_id = ?`,
  ),
  /** Sets the hold; 0 rows when it was set already. */
  setHold: sql(
    'UPDATE user_restrictions SET random_review_hold = 1, updated_at = ? WHERE user_id = ? AND random_review_hold = 0',
  ),
  /** Clears the hold; 0 rows when none was set. */
  clearHold: sql(
    `UPDATE user_restrictions SET random_review_hold = 0, hold_cleared_at = ?, updated_at = ?
      WHERE user_id = ? AND random_review_hold = 1`,
  ),
  insertLog: sql(
    `INSERT INTO moderation_log (id, user_id, actor_id, action, report_id, until, note, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  /** The user's latest history entries (moderation_log_user_idx), newest first. */
  logOf: sql<ModerationLogRow>(
    `SELECT l.id, l.user_id, l.actor_id, l.action, l.report_id, l.until, l.note, l.created_at,
            u.first_name AS actor_first_name, u.last_name AS actor_last_name
       FROM moderation_log l LEFT JOIN users u ON u.id = l.actor_id
      WHERE l.user_id = ? ORDER BY l.created_at DESC, l.id DESC LIMIT 50`,
  ),
  userExists: sql<{ id: string }>('SELECT id FROM users WHERE id = ?'),
};

/** The statements reading reports with their cards, per database (`dialectOf(deps.db)`). */
export const reportListStatements = perDialect((dialect) => ({
  listById: sql<ReportListRow>(`${listSelect(dialect)} WHERE r.id = ?`),
  /** The queue of open reports, oldest first, after a keyset (reports_queue_idx). */
  openPage: sql<ReportListRow>(
    `${listSelect(dialect)} WHERE r.status = 'open' AND (r.created_at, r.id) > (?, ?)
      ORDER BY r.created_at, r.id LIMIT ?`,
  ),
  /** Decided reports of one status, newest decision first, before a keyset (reports_decided_idx). */
  decidedPage: sql<ReportListRow>(
    `${listSelect(dialect)} WHERE r.status = ? AND r.status <> 'open' AND (r.decided_at, r.id) < (?, ?)
      ORDER BY r.decided_at DESC, r.id DESC LIMIT ?`,
  ),
}));

/** `?, ?, …` for an IN list of at most a page of ids. */
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Each reported user's reports and upheld reports, for a page (reports_reported_idx), in one query. */
export function reportedCountsSql(n: number): Sql<ReportedCountsRow> {
  return sql(
    `SELECT reported_id, COUNT(*) AS reports, COALESCE(SUM(CASE WHEN status = 'upheld' THEN 1 ELSE 0 END), 0) AS upheld
       FROM reports WHERE reported_id IN (${placeholders(n)}) GROUP BY reported_id`,
  );
}

export function restrictionsSql(n: number): Sql<RestrictionRow> {
  return sql(
    `SELECT user_id, random_suspended_until, random_review_hold, hold_cleared_at, account_suspended_until,
            updated_at
       FROM user_restrictions WHERE user_id IN (${placeholders(n)})`,
  );
}

export const reportById = (tx: ReadTx, id: string) => tx.first(reportStatements.byId, id);
export const reportListRow = (tx: ReadTx, id: string, dialect: Dialect) =>
  tx.first(reportListStatements[dialect].listById, id);
export const restrictionOf = (tx: Pick<ReadTx, 'first'>, userId: string) =>
  tx.first(reportStatements.restriction, userId);
export const userExists = async (tx: ReadTx, id: string) =>
  (await tx.first(reportStatements.userExists, id)) !== undefined;

export async function reportedCounts(tx: ReadTx, ids: readonly string[]): Promise<ReportedCountsRow[]> {
  return ids.length ? tx.all(reportedCountsSql(ids.length), ...ids) : [];
}

export async function restrictionsOf(tx: ReadTx, ids: readonly string[]): Promise<RestrictionRow[]> {
  return ids.length ? tx.all(restrictionsSql(ids.length), ...ids) : [];
}

export interface NewReport {
  id: string;
  reporterId: string;
  reportedId: string;
  contextKind: ReportRow['context_kind'];
  contextRef: string | null;
  reason: string;
  note: string | null;
  evidence: string | null;
  createdAt: string;
}

export async function insertReport(tx: Tx, r: NewReport): Promise<void> {
  await tx.run(
    reportStatements.insert,
    r.id,
    r.reporterId,
    r.reportedId,
    r.contextKind,
    r.contextRef,
    r.reason,
    r.note,
    r.evidence,
    r.createdAt,
  );
}

export interface NewLogEntry {
  id: string;
  userId: string;
  actorId: string | null;
  action: ModerationLogRow['action'];
  reportId: string | null;
  until: string | null;
  note: string | null;
  at: string;
}

export async function insertLog(tx: Tx, e: NewLogEntry): Promise<void> {
  await tx.run(
    reportStatements.insertLog,
    e.id,
    e.userId,
    e.actorId,
    e.action,
    e.reportId,
    e.until,
    e.note,
    e.at,
  );
}
