import {
  createReportResponseSchema,
  type CreateReportResponse,
  type RestReportContext,
} from '@campus/protocol';
import type { ApiClient } from '../../lib/api';
import type { ReportInput } from './ReportDialog';

/** `POST /api/reports` from a direct chat, a call or a friend row; the server blocks too unless unticked. */
export function submitReport(
  api: ApiClient,
  context: RestReportContext,
  input: ReportInput,
): Promise<CreateReportResponse> {
  return api.post(
    '/api/reports',
    { context, reason: input.reason, block: input.block, ...(input.note ? { note: input.note } : {}) },
    createReportResponseSchema,
  );
}
