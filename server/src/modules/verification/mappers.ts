import type { z } from 'zod';
import {
  DOCUMENT_STATUSES,
  ocrResultSchema,
  serverCheckSchema,
  type AdminDocumentItem,
  type DocumentHistoryEntry,
  type DocumentStatus,
  type MyDocumentResponse,
  type OcrResult,
  type ServerCheck,
} from '@campus/protocol';
import { toUser, type UserRow } from '../users';
import type { DecisionRow, DocumentRow } from './rows';

const statusOf = (value: string | null): DocumentStatus | null =>
  value !== null && (DOCUMENT_STATUSES as readonly string[]).includes(value)
    ? (value as DocumentStatus)
    : null;

/** Stored JSON read back through its schema: a row written by an older version never breaks the list. */
function parseJson<T>(text: string | null, schema: z.ZodType<T>): T | null {
  if (text === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const UNREADABLE_CHECK: ServerCheck = { verdict: 'error', problems: [], recognized: null };

export function toDocument(row: DocumentRow): NonNullable<AdminDocumentItem['document']> {
  return {
    id: row.id,
    contentType: row.content_type,
    size: row.size,
    submittedAt: row.submitted_at,
    manual: row.manual === 1,
    clientRecognized: parseJson<OcrResult>(row.client_recognized, ocrResultSchema),
    check: parseJson<ServerCheck>(row.server_check, serverCheckSchema) ?? UNREADABLE_CHECK,
  };
}

export function toHistoryEntry(row: DecisionRow): DocumentHistoryEntry {
  return {
    id: row.id,
    action: row.action,
    // An actor whose account was deleted keeps their entry, without a name.
    by: {
      id: row.actor_id ?? '',
      firstName: row.actor_first_name ?? 'Deleted',
      lastName: row.actor_last_name ?? 'account',
    },
    at: row.created_at,
    reason: row.reason,
    fromStatus: statusOf(row.from_status),
    toStatus: statusOf(row.to_status) ?? 'pending_submission',
  };
}

export function toAdminItem(
  row: UserRow,
  document: DocumentRow | undefined,
  history: DecisionRow[],
  academicCollege: string | null,
): AdminDocumentItem {
  const user = toUser(row);
  return {
    user: {
      id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      profilePictureUrl: user.profilePictureUrl,
      course: user.course,
      year: user.year,
      college: user.college,
      documentStatus: user.documentStatus,
      createdAt: user.createdAt,
    },
    academicEmail: row.academic_domain ? { domain: row.academic_domain, college: academicCollege } : null,
    document: document ? toDocument(document) : null,
    rejectionReason: row.rejection_reason,
    history: history.map(toHistoryEntry),
  };
}

export function toMyDocument(row: UserRow, document: DocumentRow | undefined): MyDocumentResponse {
  return {
    documentStatus: toUser(row).documentStatus,
    submittedAt: row.document_submitted_at,
    rejectionReason: row.rejection_reason,
    contentType: document?.content_type ?? null,
  };
}
