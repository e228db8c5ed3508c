import {
  REPORT_MSG,
  adminReportDetailSchema,
  adminReportItemSchema,
  adminReportsResponseSchema,
  clearHoldResponseSchema,
  type AdminReportDetail,
  type AdminReportItem,
  type AdminReportsResponse,
  type ReportDecision,
  type ReportStatus,
} from '@campus/protocol';
import { isApiError, type ApiClient } from '../../../lib/api';

/** The queue's tabs: what waits first, then the decided ones. */
export const REPORT_TABS: { status: ReportStatus; label: string; empty: string }[] = [
  { status: 'open', label: 'Open', empty: 'No reports are waiting for review.' },
  { status: 'upheld', label: 'Upheld', empty: 'No upheld reports yet.' },
  { status: 'dismissed', label: 'Dismissed', empty: 'No dismissed reports.' },
];

export const REPORTS_PAGE_SIZE = 20;

/** One page: open reports oldest first, decided ones newest decision first; `before` is the last `next`. */
export function fetchReports(
  api: ApiClient,
  status: ReportStatus,
  before: string | null,
  signal?: AbortSignal,
): Promise<AdminReportsResponse> {
  const query = new URLSearchParams({ status, limit: String(REPORTS_PAGE_SIZE) });
  if (before) query.set('before', before);
  return api.get(`/api/admin/reports?${query.toString()}`, adminReportsResponseSchema, { signal });
}

/** A report with its evidence (a text room's transcript) and the reported user's moderation history. */
export function fetchReport(api: ApiClient, id: string, signal?: AbortSignal): Promise<AdminReportDetail> {
  return api.get(`/api/admin/reports/${encodeURIComponent(id)}`, adminReportDetailSchema, { signal });
}

export function decideReport(api: ApiClient, id: string, decision: ReportDecision): Promise<AdminReportItem> {
  return api.post(`/api/admin/reports/${encodeURIComponent(id)}/decision`, decision, adminReportItemSchema);
}

export function clearRandomHold(api: ApiClient, userId: string) {
  return api.post(
    `/api/admin/users/${encodeURIComponent(userId)}/random-hold/clear`,
    {},
    clearHoldResponseSchema,
  );
}

/** A refused decision: 409 when another admin decided it first (reload), or why it failed. */
export function decisionFailure(error: unknown): { message: string; stale: boolean } {
  if (isApiError(error) && error.kind === 'http') {
    if (error.status === 409)
      return { message: error.serverMessage ?? REPORT_MSG.alreadyDecided, stale: true };
    if (error.status === 404)
      return { message: error.serverMessage ?? REPORT_MSG.reportNotFound, stale: true };
    if (error.serverMessage) return { message: error.serverMessage, stale: false };
  }
  return { message: REPORT_MSG.decisionFailed, stale: false };
}

export function personName(user: { firstName: string; lastName: string } | null): string {
  if (!user) return 'Deleted account';
  return `${user.firstName} ${user.lastName}`.trim() || 'Unknown student';
}
