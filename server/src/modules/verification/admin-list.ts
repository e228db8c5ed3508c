import {
  ADMIN_MSG,
  DOCUMENT_STATUSES,
  UPLOAD,
  type AdminDocumentItem,
  type AdminDocumentsQuery,
  type AdminDocumentsResponse,
} from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import type { ReadTx } from '../../realtime/transaction';
import type { UserRow } from '../users';
import { collegesOfDomains } from './academic';
import { toAdminItem } from './mappers';
import { decodeCursor, encodeCursor, queuePage } from './queue';
import { documentById, documentsByIds, historiesOf, statusCounts, userRow } from './repo';
import type { DecisionRow, DocumentRow } from './rows';

/** A page's documents and histories, two queries for the whole page (never one per user). */
async function detailsOf(tx: ReadTx, rows: UserRow[]) {
  const documentIds = rows.flatMap((r) => (r.current_document_id ? [r.current_document_id] : []));
  const documents = new Map<string, DocumentRow>();
  for (const doc of await documentsByIds(tx, documentIds)) documents.set(doc.id, doc);
  const histories = new Map<string, DecisionRow[]>();
  for (const entry of await historiesOf(
    tx,
    rows.map((r) => r.id),
  )) {
    const list = histories.get(entry.user_id) ?? [];
    list.push(entry);
    histories.set(entry.user_id, list);
  }
  return { documents, histories };
}

async function itemsOf(deps: AppDeps, rows: UserRow[], details: Awaited<ReturnType<typeof detailsOf>>) {
  const colleges = await collegesOfDomains(
    deps.transactor,
    rows.flatMap((r) => (r.academic_domain ? [r.academic_domain] : [])),
  );
  return rows.map((row): AdminDocumentItem =>
    toAdminItem(
      row,
      row.current_document_id ? details.documents.get(row.current_document_id) : undefined,
      details.histories.get(row.id) ?? [],
      row.academic_domain ? (colleges.get(row.academic_domain) ?? null) : null,
    ),
  );
}

/**
 * `GET /api/upload/admin/documents?status=&after=&limit=`: one status (pending_verification by default) or
 * all, oldest submission first, in keyset pages; with the counts per status for the tabs.
 */
export async function listDocuments(
  deps: AppDeps,
  query: AdminDocumentsQuery,
): Promise<AdminDocumentsResponse> {
  const cursor = query.after === undefined ? undefined : decodeCursor(query.after);
  if (query.after !== undefined && !cursor) throw new HttpError(400, ADMIN_MSG.loadFailed);
  const { page, more, details, countRows } = await deps.transactor.read(async (tx) => {
    // One more than asked tells whether another page follows.
    const found = await queuePage(tx, query.status, cursor, query.limit + 1);
    const rows = found.slice(0, query.limit);
    return {
      page: rows,
      more: found.length > query.limit,
      details: await detailsOf(tx, rows),
      countRows: await statusCounts(tx),
    };
  });
  const counts: Record<string, number> = Object.fromEntries(DOCUMENT_STATUSES.map((s) => [s, 0]));
  let all = 0;
  for (const c of countRows) {
    counts[c.document_status] = Number(c.n);
    all += Number(c.n);
  }
  counts.all = all;
  const last = page.at(-1);
  return {
    users: await itemsOf(deps, page, details),
    next: more && last ? encodeCursor(last) : null,
    counts,
  };
}

/** One student's item, as the list shows it (the answer of a decision). */
export async function documentItem(deps: AppDeps, userId: string): Promise<AdminDocumentItem> {
  const found = await deps.transactor.read(async (tx) => {
    const row = await userRow(tx, userId);
    return row && { row, details: await detailsOf(tx, [row]) };
  });
  if (!found) throw new HttpError(404, ADMIN_MSG.userNotFound);
  const [item] = await itemsOf(deps, [found.row], found.details);
  return item!;
}

/** `GET /api/upload/admin/document-url?userId=`: a short-lived signed URL of the current document. */
export async function documentUrl(
  deps: AppDeps,
  userId: string,
): Promise<{ url: string; contentType: string }> {
  const doc = await deps.transactor.read(async (tx) => {
    const row = await userRow(tx, userId);
    return row?.current_document_id ? documentById(tx, row.current_document_id) : undefined;
  });
  if (!doc) throw new HttpError(404, ADMIN_MSG.noDocument);
  return {
    // The local driver's URL is its /files/documents route (headers from the database); S3's is a presigned
    // GET that answers with the same headers.
    url: await deps.storage.signedUrl(doc.storage_key, UPLOAD.reviewUrlTtlSeconds, {
      contentType: doc.content_type,
      contentDisposition: 'inline',
      cacheControl: 'private, no-store',
    }),
    contentType: doc.content_type,
  };
}
