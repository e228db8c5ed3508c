import {
  COLLEGE_ADMIN_MSG,
  COLLEGE_COUNTRIES,
  approveCollegeResponseSchema,
  manualCollegesResponseSchema,
  mergeCollegeResponseSchema,
  type ApproveCollegeRequest,
  type ManualCollegeItem,
  type ManualCollegesResponse,
  type MergeCollegeResponse,
} from '@campus/protocol';
import { isApiError, type ApiClient } from '../../../lib/api';

export const MANUAL_PAGE_SIZE = 20;
export const MANUAL_COLLEGES_PATH = '/api/admin/colleges/manual';

/** One page of manual colleges, oldest first; `after` is the previous page's `next`. */
export function fetchManualColleges(
  api: ApiClient,
  after: string | null,
  limit = MANUAL_PAGE_SIZE,
  signal?: AbortSignal,
): Promise<ManualCollegesResponse> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (after) query.set('after', after);
  return api.get(`${MANUAL_COLLEGES_PATH}?${query.toString()}`, manualCollegesResponseSchema, { signal });
}

const collegePath = (id: string, action: 'approve' | 'merge') =>
  `/api/admin/colleges/${encodeURIComponent(id)}/${action}`;

export async function approveCollege(
  api: ApiClient,
  id: string,
  body: ApproveCollegeRequest,
): Promise<ManualCollegeItem> {
  return (await api.post(collegePath(id, 'approve'), body, approveCollegeResponseSchema)).college;
}

export function mergeCollege(api: ApiClient, id: string, into: string): Promise<MergeCollegeResponse> {
  return api.post(collegePath(id, 'merge'), { into }, mergeCollegeResponseSchema);
}

/**
 * A refused approval or merge: `gone` when the college left the list meanwhile (approved or merged by
 * another admin: 404 or 409 'no longer waiting'), so the page reloads; otherwise why, to show in the dialog.
 */
export function actionFailure(error: unknown): { message: string; gone: boolean } {
  if (isApiError(error) && error.kind === 'http' && error.serverMessage) {
    const gone =
      error.serverMessage === COLLEGE_ADMIN_MSG.notManual ||
      error.serverMessage === COLLEGE_ADMIN_MSG.notFound;
    return { message: error.serverMessage, gone };
  }
  return { message: COLLEGE_ADMIN_MSG.actionFailed, gone: false };
}

export function countryName(code: string): string {
  return COLLEGE_COUNTRIES.find((c) => c.code === code)?.name ?? code;
}

/** 'Pune, Maharashtra', or null when the college has no place yet. */
export function placeLabel(college: Pick<ManualCollegeItem, 'city' | 'stateName'>): string | null {
  return [college.city, college.stateName].filter(Boolean).join(', ') || null;
}

export function studentsLabel(count: number): string {
  return count === 1 ? '1 student' : `${count} students`;
}
