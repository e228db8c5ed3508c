import {
  REPORT_MSG,
  type AdminReportDetail,
  type AdminReportItem,
  type AdminReportsQuery,
  type AdminReportsResponse,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { dialectOf, type Dialect } from '../../lib/db/portable-sql';
import { HttpError } from '../../lib/http-error';
import type { ReadTx } from '../../realtime/transaction';
import { toAdminReport, toEvidence, toModerationEntry } from './mappers';
import {
  reportById,
  reportedCounts,
  reportListRow,
  reportListStatements,
  reportStatements as q,
  restrictionsOf,
} from './repo';
import { toUserRestriction } from './restrictions';
import type { ReportListRow } from './rows';

/**
 * The admin queue: open reports oldest first (the one waiting longest on top), decided ones newest
 * decision first, in keyset pages. `before` is the previous page's `next`: `<time>|<id>` of its last report
 * (created_at for open, decided_at for the others).
 */

export function encodeCursor(row: ReportListRow): string {
  return `${(row.status === 'open' ? row.created_at : row.decided_at) ?? ''}|${row.id}`;
}

/** undefined for a malformed cursor (answered 400). */
export function decodeCursor(raw: string): { at: string; id: string } | undefined {
  const bar = raw.lastIndexOf('|');
  if (bar <= 0) return undefined;
  const at = raw.slice(0, bar);
  const id = raw.slice(bar + 1);
  if (!id || Number.isNaN(Date.parse(at))) return undefined;
  return { at, id };
}

/** The page's reported users' counts and restrictions, one query each for the whole page. */
async function itemsOf(tx: ReadTx, rows: ReportListRow[]): Promise<AdminReportItem[]> {
  const ids = [...new Set(rows.map((r) => r.reported_id))];
  const counts = new Map((await reportedCounts(tx, ids)).map((c) => [c.reported_id, c]));
  const restrictions = new Map((await restrictionsOf(tx, ids)).map((r) => [r.user_id, r]));
  return rows.map((row) => {
    const c = counts.get(row.reported_id);
    return toAdminReport(
      row,
      { reports: Number(c?.reports ?? 0), upheld: Number(c?.upheld ?? 0) },
      toUserRestriction(restrictions.get(row.reported_id), tx.now),
    );
  });
}

/** `GET /api/admin/reports?status=&before=&limit=`, with the counts per status for the tabs. */
export async function listReports(deps: AppDeps, query: AdminReportsQuery): Promise<AdminReportsResponse> {
  const cursor = query.before === undefined ? undefined : decodeCursor(query.before);
  if (query.before !== undefined && !cursor) throw new HttpError(400, REPORT_MSG.loadFailed);
  const list = reportListStatements[dialectOf(deps.db)];
  return deps.transactor.read(async (tx) => {
    // One more than asked tells whether another page follows.
    const found =
      query.status === 'open'
        ? await tx.all(list.openPage, cursor?.at ?? '', cursor?.id ?? '', query.limit + 1)
        : // '~' sorts after every ISO time: the first page starts at the newest decision.
          await tx.all(list.decidedPage, query.status, cursor?.at ?? '~', cursor?.id ?? '~', query.limit + 1);
    const page = found.slice(0, query.limit);
    const counts = { open: 0, upheld: 0, dismissed: 0 };
    for (const c of await tx.all(q.counts)) {
      if (c.status === 'open' || c.status === 'upheld' || c.status === 'dismissed')
        counts[c.status] = Number(c.n);
    }
    const last = page.at(-1);
    return {
      reports: await itemsOf(tx, page),
      next: found.length > query.limit && last ? encodeCursor(last) : null,
      counts,
    };
  });
}

/** One report as the queue shows it (a decision's answer), read in `tx` (`dialect`: `dialectOf(deps.db)`). */
export async function reportItemIn(tx: ReadTx, id: string, dialect: Dialect): Promise<AdminReportItem> {
  const row = await reportListRow(tx, id, dialect);
  if (!row) throw new HttpError(404, REPORT_MSG.reportNotFound);
  const [item] = await itemsOf(tx, [row]);
  return item!;
}

/** `GET /api/admin/reports/:id`: the item, its evidence and the reported user's moderation history. */
export async function reportDetail(deps: AppDeps, id: string): Promise<AdminReportDetail> {
  return deps.transactor.read(async (tx) => {
    const item = await reportItemIn(tx, id, dialectOf(deps.db));
    const full = await reportById(tx, id);
    const history = await tx.all(q.logOf, item.reported.id);
    return { ...item, evidence: toEvidence(full?.evidence ?? null), history: history.map(toModerationEntry) };
  });
}
