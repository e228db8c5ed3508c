import { sql, type ReadTx, type Sql, type Tx } from '../../realtime/transaction';
import type { UserRow } from '../users';
import type { DecisionRow, DocumentRow, IntentRow, StatusCountRow } from './rows';

/**
 * The verification module's statements, run through the engine's `Tx` (portable SQL, `?` placeholders in
 * order). Each function takes the transaction first and answers rows; mappers.ts turns them into wire shapes.
 */

const INTENT_COLUMNS = 'storage_key, user_id, content_type, expires_at, uploaded_size';
const DOCUMENT_COLUMNS =
  'id, user_id, storage_key, content_type, size, manual, client_recognized, server_check, submitted_at';
/** Statuses from which a student may submit (again); `canUploadDocument` of the protocol says the same. */
const UPLOADABLE = `('pending_submission', 'pending_verification', 'rejected')`;

const q = {
  user: sql<UserRow>('SELECT * FROM users WHERE id = ?'),
  intent: sql<IntentRow>(`SELECT ${INTENT_COLUMNS} FROM upload_intents WHERE storage_key = ?`),
  insertIntent: sql(`INSERT INTO upload_intents (${INTENT_COLUMNS}) VALUES (?, ?, ?, ?, NULL)`),
  /** Only one PUT may store an intent's file: the claim changes nothing when another got there first. */
  claimIntent: sql(
    'UPDATE upload_intents SET uploaded_size = -1 WHERE storage_key = ? AND uploaded_size IS NULL',
  ),
  releaseIntent: sql(
    'UPDATE upload_intents SET uploaded_size = NULL WHERE storage_key = ? AND uploaded_size = -1',
  ),
  markUploaded: sql('UPDATE upload_intents SET uploaded_size = ?, content_type = ? WHERE storage_key = ?'),
  /** Anyone's abandoned intents, oldest first, a bounded batch (upload_intents_expiry_idx). */
  staleIntents: sql<IntentRow>(
    `SELECT ${INTENT_COLUMNS} FROM upload_intents WHERE expires_at < ? ORDER BY expires_at LIMIT 50`,
  ),
  /** Claims a stale intent for sweeping: only while it is still there (not submitted meanwhile). */
  dropStaleIntent: sql('DELETE FROM upload_intents WHERE storage_key = ? AND expires_at < ?'),
  /** A submitted intent is consumed; an uploaded one only (a claim in progress stays). */
  consumeIntent: sql(
    'DELETE FROM upload_intents WHERE storage_key = ? AND user_id = ? AND uploaded_size >= 0',
  ),

  documentByKey: sql<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE storage_key = ?`),
  documentById: sql<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ?`),
  insertDocument: sql(`INSERT INTO documents (${DOCUMENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
  /** Parameters: submitted at, document id, user id. Changes nothing once verified or exempt. */
  setSubmitted: sql(
    `UPDATE users SET document_status = 'pending_verification', document_submitted_at = ?,
       current_document_id = ?, rejection_reason = NULL WHERE id = ? AND document_status IN ${UPLOADABLE}`,
  ),
  /** Parameters: new status, reason, user id, expected status: check-and-set, so racing admins decide once. */
  setDecided: sql(
    'UPDATE users SET document_status = ?, rejection_reason = ? WHERE id = ? AND document_status = ?',
  ),
  /**
   * The same for a verify or reject, which also names the document decided (parameters as above, then the
   * document id): a student replacing the document meanwhile makes it change nothing.
   */
  setDocumentDecided: sql(
    `UPDATE users SET document_status = ?, rejection_reason = ?
       WHERE id = ? AND document_status = ? AND current_document_id = ?`,
  ),
  /** Whether an admin verified or rejected this document (document_decisions_user_idx is per user). */
  wasDecided: sql<{ one: number }>(
    `SELECT 1 AS one FROM document_decisions WHERE document_id = ? AND action IN ('verify', 'reject') LIMIT 1`,
  ),
  lastDecisionAt: sql<{ created_at: string }>(
    'SELECT created_at FROM document_decisions WHERE user_id = ? ORDER BY created_at DESC LIMIT 1',
  ),
  insertDecision: sql(
    `INSERT INTO document_decisions
       (id, user_id, document_id, actor_id, action, reason, from_status, to_status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  counts: sql<StatusCountRow>('SELECT document_status, COUNT(*) AS n FROM users GROUP BY document_status'),
};

export const userRow = (tx: ReadTx, userId: string) => tx.first(q.user, userId);
export const intentOf = (tx: ReadTx, key: string) => tx.first(q.intent, key);
export const documentByKey = (tx: ReadTx, key: string) => tx.first(q.documentByKey, key);
export const documentById = (tx: ReadTx, id: string) => tx.first(q.documentById, id);
export const statusCounts = (tx: ReadTx) => tx.all(q.counts);
export const wasDecided = async (tx: ReadTx, documentId: string) =>
  (await tx.first(q.wasDecided, documentId)) !== undefined;

export async function insertIntent(
  tx: Tx,
  intent: { key: string; userId: string; contentType: string; expiresAt: number },
): Promise<void> {
  await tx.run(q.insertIntent, intent.key, intent.userId, intent.contentType, intent.expiresAt);
}

export const claimIntent = async (tx: Tx, key: string) => (await tx.run(q.claimIntent, key)) === 1;
export const releaseIntent = (tx: Tx, key: string) => tx.run(q.releaseIntent, key);
export const markUploaded = (tx: Tx, key: string, size: number, contentType: string) =>
  tx.run(q.markUploaded, size, contentType, key);
export const staleIntents = (tx: ReadTx, before: number) => tx.all(q.staleIntents, before);
export const dropStaleIntent = async (tx: Tx, key: string, before: number) =>
  (await tx.run(q.dropStaleIntent, key, before)) === 1;
export const consumeIntent = async (tx: Tx, key: string, userId: string) =>
  (await tx.run(q.consumeIntent, key, userId)) === 1;

export async function insertDocument(tx: Tx, row: DocumentRow): Promise<void> {
  await tx.run(
    q.insertDocument,
    row.id,
    row.user_id,
    row.storage_key,
    row.content_type,
    row.size,
    row.manual,
    row.client_recognized,
    row.server_check,
    row.submitted_at,
  );
}

export const setSubmitted = async (tx: Tx, userId: string, documentId: string, at: string) =>
  (await tx.run(q.setSubmitted, at, documentId, userId)) === 1;

export const setDecided = async (
  tx: Tx,
  userId: string,
  from: string,
  to: string,
  rejectionReason: string | null,
  /** For a verify or reject: the document the admin decided, which must still be the current one. */
  documentId?: string,
) =>
  (documentId === undefined
    ? await tx.run(q.setDecided, to, rejectionReason, userId, from)
    : await tx.run(q.setDocumentDecided, to, rejectionReason, userId, from, documentId)) === 1;

export interface NewDecision {
  id: string;
  userId: string;
  documentId: string | null;
  actorId: string;
  action: DecisionRow['action'];
  reason: string | null;
  fromStatus: string | null;
  toStatus: string;
}

/**
 * Appends a history entry. Its time is strictly after the user's previous entry, so the history has one
 * order even when two entries fall in the same millisecond (a test's frozen clock, a quick admin).
 */
export async function insertDecision(tx: Tx, d: NewDecision): Promise<string> {
  const last = await tx.first(q.lastDecisionAt, d.userId);
  const lastMs = last ? Date.parse(last.created_at) : -Infinity;
  const at = new Date(Math.max(tx.now, lastMs + 1)).toISOString();
  await tx.run(
    q.insertDecision,
    d.id,
    d.userId,
    d.documentId,
    d.actorId,
    d.action,
    d.reason,
    d.fromStatus,
    d.toStatus,
    at,
  );
  return at;
}

/** `?, ?, …` for an IN list (at most a page of ids: the statement cache keeps a few such texts). */
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** The documents of a page of users, in one query. */
export function documentsByIds(tx: ReadTx, ids: readonly string[]): Promise<DocumentRow[]> {
  if (!ids.length) return Promise.resolve([]);
  const text: Sql<DocumentRow> = sql(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id IN (${placeholders(ids.length)})`,
  );
  return tx.all(text, ...ids);
}

/** An item's history is cut to its latest entries: a page never grows with a student's many attempts. */
export const HISTORY_PER_ITEM = 20;

/** The history statement for `n` users (exported for the migration test's query-plan check). */
export function historySql(n: number): Sql<DecisionRow> {
  return sql(
    `SELECT id, user_id, action, reason, from_status, to_status, created_at, actor_id,
            actor_first_name, actor_last_name
       FROM (SELECT d.id, d.user_id, d.action, d.reason, d.from_status, d.to_status, d.created_at,
                    d.actor_id, a.first_name AS actor_first_name, a.last_name AS actor_last_name,
                    ROW_NUMBER() OVER (PARTITION BY d.user_id ORDER BY d.created_at DESC) AS rn
               FROM document_decisions d LEFT JOIN users a ON a.id = d.actor_id
              WHERE d.user_id IN (${placeholders(n)})) latest
      WHERE rn <= ${HISTORY_PER_ITEM}
      ORDER BY user_id, created_at`,
  );
}

/** The latest history entries of a page of users with their actors' names, oldest first, in one query. */
export function historiesOf(tx: ReadTx, userIds: readonly string[]): Promise<DecisionRow[]> {
  if (!userIds.length) return Promise.resolve([]);
  return tx.all(historySql(userIds.length), ...userIds);
}
