import type { DocumentStatus } from '@campus/protocol';
import { sql, type ReadTx } from '../../realtime/transaction';
import type { UserRow } from '../users';

/**
 * The admin queue: users of one status (or all), oldest submission first, then those who never submitted,
 * in keyset pages over users_document_queue_idx (document_status, document_submitted_at, id). NULL never
 * compares in a row value, so the two groups are two index ranges read one after the other.
 */

/** Where a page ends: the last user's submission time ('' when none) and id. */
export interface QueueCursor {
  submittedAt: string;
  id: string;
}

export function encodeCursor(row: Pick<UserRow, 'document_submitted_at' | 'id'>): string {
  return `${row.document_submitted_at ?? ''}|${row.id}`;
}

/** undefined for a malformed cursor (answered 400 by the route). */
export function decodeCursor(raw: string): QueueCursor | undefined {
  const bar = raw.lastIndexOf('|');
  if (bar < 0) return undefined;
  const submittedAt = raw.slice(0, bar);
  const id = raw.slice(bar + 1);
  if (!id || (submittedAt && Number.isNaN(Date.parse(submittedAt)))) return undefined;
  return { submittedAt, id };
}

/** The statements, exported for the migration test's query-plan checks. */
export const queueStatements = {
  /** Parameters: status, submitted at, id, limit. */
  datedOf: sql<UserRow>(
    `SELECT * FROM users WHERE document_status = ? AND (document_submitted_at, id) > (?, ?)
      ORDER BY document_submitted_at, id LIMIT ?`,
  ),
  /** Parameters: status, id, limit. */
  undatedOf: sql<UserRow>(
    `SELECT * FROM users WHERE document_status = ? AND document_submitted_at IS NULL AND id > ?
      ORDER BY id LIMIT ?`,
  ),
  // Every status: no index gives this order, but it is a rare tab of a table of students.
  datedAll: sql<UserRow>(
    `SELECT * FROM users WHERE (document_submitted_at, id) > (?, ?) ORDER BY document_submitted_at, id LIMIT ?`,
  ),
  undatedAll: sql<UserRow>(
    'SELECT * FROM users WHERE document_submitted_at IS NULL AND id > ? ORDER BY id LIMIT ?',
  ),
};

/** One page of `limit` users after `cursor` (from the start without one). */
export async function queuePage(
  tx: ReadTx,
  status: DocumentStatus | 'all',
  cursor: QueueCursor | undefined,
  limit: number,
): Promise<UserRow[]> {
  const dated = (at: string, id: string, n: number) =>
    status === 'all'
      ? tx.all(queueStatements.datedAll, at, id, n)
      : tx.all(queueStatements.datedOf, status, at, id, n);
  const undated = (id: string, n: number) =>
    status === 'all'
      ? tx.all(queueStatements.undatedAll, id, n)
      : tx.all(queueStatements.undatedOf, status, id, n);

  if (cursor && !cursor.submittedAt) return undated(cursor.id, limit);
  // Every stored time is after '' (ISO strings), so ('', '') starts at the oldest submission.
  const rows = await dated(cursor?.submittedAt ?? '', cursor?.id ?? '', limit);
  if (rows.length < limit) rows.push(...(await undated('', limit - rows.length)));
  return rows;
}
