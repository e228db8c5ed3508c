import {
  ADMIN_MSG,
  adminDocumentItemSchema,
  adminDocumentUrlResponseSchema,
  adminDocumentsResponseSchema,
  type AdminDocumentItem,
  type AdminDocumentsResponse,
  type DocumentDecision,
  type DocumentStatus,
} from '@campus/protocol';
import { isApiError, type ApiClient, type ResponseSchema } from '../../lib/api';

export type AdminTab = DocumentStatus | 'all';

/** The review's tabs: the queue first, then the decided ones, those still to upload, and everyone. */
export const ADMIN_TABS: { status: AdminTab; label: string; empty: string }[] = [
  { status: 'pending_verification', label: 'Pending', empty: 'No documents are waiting for review.' },
  { status: 'verified', label: 'Verified', empty: 'No verified students yet.' },
  { status: 'rejected', label: 'Rejected', empty: 'No rejected documents.' },
  { status: 'pending_submission', label: 'Awaiting upload', empty: 'Every student has uploaded a document.' },
  { status: 'all', label: 'All', empty: 'No students yet.' },
];

export const PAGE_SIZE = 20;

/** One page, oldest submission first; `after` is the previous page's `next`. */
export function fetchDocuments(
  api: ApiClient,
  status: AdminTab,
  after: string | null,
  signal?: AbortSignal,
): Promise<AdminDocumentsResponse> {
  const query = new URLSearchParams({ status, limit: String(PAGE_SIZE) });
  if (after) query.set('after', after);
  return api.get(`/api/upload/admin/documents?${query.toString()}`, adminDocumentsResponseSchema, {
    signal,
  });
}

/** A short-lived signed URL of the student's current document. */
export function fetchDocumentUrl(api: ApiClient, userId: string, signal?: AbortSignal) {
  const query = new URLSearchParams({ userId });
  return api.get(`/api/upload/admin/document-url?${query.toString()}`, adminDocumentUrlResponseSchema, {
    signal,
  });
}

/** The decision's answer: the item as it is now when the server sends it, otherwise nothing to use. */
const decisionAnswer: ResponseSchema<AdminDocumentItem | null> = {
  parse: (data) => {
    const item = adminDocumentItemSchema.safeParse(data);
    if (item.success) return item.data;
    const wrapped = adminDocumentItemSchema.safeParse((data as { item?: unknown } | null)?.item);
    return wrapped.success ? wrapped.data : null;
  },
};

export function decide(
  api: ApiClient,
  userId: string,
  decision: DocumentDecision,
): Promise<AdminDocumentItem | null> {
  return api.patch(`/api/upload/admin/documents/${encodeURIComponent(userId)}`, decision, decisionAnswer);
}

/** A refused decision: 409 when the item is no longer pending (reload it), or why it failed. */
export function decisionFailure(error: unknown): { message: string; stale: boolean } {
  if (isApiError(error) && error.kind === 'http') {
    if (error.status === 409) return { message: error.serverMessage ?? ADMIN_MSG.notPending, stale: true };
    if (error.status === 400 && error.serverMessage) return { message: error.serverMessage, stale: false };
    if (error.status === 404) return { message: error.serverMessage ?? ADMIN_MSG.userNotFound, stale: true };
  }
  return { message: ADMIN_MSG.decisionFailed, stale: false };
}

export function fullName(user: { firstName: string; lastName: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || 'Unknown student';
}

export function collegeLabel(college: AdminDocumentItem['user']['college']): string | null {
  if (!college) return null;
  return typeof college === 'string' ? college : college.name;
}
