import {
  REPORT_REASONS,
  reportEvidenceSchema,
  type AdminReportItem,
  type ModerationEntry,
  type ReportContext,
  type ReportEvidence,
  type ReportReason,
  type UserRestriction,
} from '@campus/protocol';
import type { ModerationLogRow, ReportListRow, ReportRow } from './rows';

const reasonOf = (value: string): ReportReason =>
  (REPORT_REASONS as readonly string[]).includes(value) ? (value as ReportReason) : 'other';

/** The context as the client named it, rebuilt from the row (chat, call and friend: the reported user). */
export function toContext(
  row: Pick<ReportRow, 'context_kind' | 'context_ref' | 'reported_id'>,
): ReportContext {
  switch (row.context_kind) {
    case 'random_room':
      return { kind: 'random_room', roomId: row.context_ref ?? '' };
    case 'call':
      return row.context_ref
        ? { kind: 'call', callLogId: row.context_ref, userId: row.reported_id }
        : { kind: 'call', userId: row.reported_id };
    case 'chat':
      return { kind: 'chat', userId: row.reported_id };
    case 'friend':
      return { kind: 'friend', userId: row.reported_id };
  }
}

/** Stored evidence read back through its schema: a row written by an older version never breaks the page. */
export function toEvidence(text: string | null): ReportEvidence | null {
  if (text === null) return null;
  try {
    const parsed = reportEvidenceSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function toAdminReport(
  row: ReportListRow,
  history: { reports: number; upheld: number },
  restriction: UserRestriction,
): AdminReportItem {
  return {
    id: row.id,
    status: row.status,
    reason: reasonOf(row.reason),
    note: row.note,
    context: toContext(row),
    createdAt: row.created_at,
    reporter:
      row.reporter_id === null
        ? null
        : {
            id: row.reporter_id,
            firstName: row.reporter_first_name ?? '',
            lastName: row.reporter_last_name ?? '',
            profilePictureUrl: row.reporter_picture,
          },
    reported: {
      id: row.reported_id,
      firstName: row.reported_first_name,
      lastName: row.reported_last_name,
      profilePictureUrl: row.reported_picture,
    },
    reportedHistory: history,
    reportedRestriction: restriction,
    evidenceCount: Number(row.evidence_count),
    decision:
      row.decision === null || row.decided_at === null
        ? null
        : {
            decision: row.decision,
            days: row.decision_days,
            until: row.decision_until,
            note: row.decision_note,
            // An admin whose account was deleted keeps the decision, without a name.
            by: row.decided_by
              ? {
                  id: row.decided_by,
                  firstName: row.admin_first_name ?? 'Deleted',
                  lastName: row.admin_last_name ?? 'account',
                }
              : null,
            at: row.decided_at,
          },
  };
}

export function toModerationEntry(row: ModerationLogRow): ModerationEntry {
  return {
    id: row.id,
    action: row.action,
    reportId: row.report_id,
    until: row.until,
    note: row.note,
    by: row.actor_id
      ? { id: row.actor_id, firstName: row.actor_first_name ?? '', lastName: row.actor_last_name ?? '' }
      : null,
    at: row.created_at,
  };
}
