import { CALL_MSG, type CallLog, type CallLogsPage } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import { toUserRef } from '../users';
import { logsPageSql, type CallLogRow } from './repo';

/** Where a page ends: the last log's start and id. */
interface LogCursor {
  startedAt: string;
  id: string;
}

/** Above every stored start (ISO times begin with a digit): the first page. */
const FIRST_PAGE: LogCursor = { startedAt: '~', id: '~' };

/** Opaque to clients: base64url of `startedAt|id`. */
export function encodeLogCursor(row: Pick<CallLogRow, 'started_at' | 'id'>): string {
  return Buffer.from(`${row.started_at}|${row.id}`).toString('base64url');
}

/** undefined for a cursor this server did not hand out. */
export function decodeLogCursor(raw: string): LogCursor | undefined {
  const text = Buffer.from(raw, 'base64url').toString();
  const bar = text.lastIndexOf('|');
  if (bar < 0) return undefined;
  const startedAt = text.slice(0, bar);
  const id = text.slice(bar + 1);
  if (!id || Number.isNaN(Date.parse(startedAt))) return undefined;
  return { startedAt, id };
}

export function toCallLog(row: CallLogRow): CallLog {
  return {
    id: row.id,
    status: row.status,
    callType: row.call_type,
    caller: toUserRef({
      id: row.caller_id,
      first_name: row.caller_first_name,
      last_name: row.caller_last_name,
      profile_picture_url: row.caller_picture,
    }),
    callee: toUserRef({
      id: row.callee_id,
      first_name: row.callee_first_name,
      last_name: row.callee_last_name,
      profile_picture_url: row.callee_picture,
    }),
    startedAt: row.started_at,
    duration: row.duration,
  };
}

/**
 * `GET /api/users/call-logs?before=&limit=`: the user's calls as caller or callee (not those hidden from
 * them as a callee who had blocked the caller), newest first, in keyset pages; one statement per page.
 */
export async function callLogsPage(
  deps: AppDeps,
  userId: string,
  query: { before?: string; limit: number },
): Promise<CallLogsPage> {
  const cursor = query.before === undefined ? FIRST_PAGE : decodeLogCursor(query.before);
  if (!cursor) throw new HttpError(400, CALL_MSG.fetchLogsFailed);
  const n = query.limit + 1;
  const { startedAt, id } = cursor;
  // One more than asked tells whether another page follows.
  const rows = await deps.transactor.read((tx) =>
    tx.all(logsPageSql, userId, startedAt, id, n, userId, startedAt, id, n, n),
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    logs: page.map(toCallLog),
    nextBefore: rows.length > query.limit && last ? encodeLogCursor(last) : null,
  };
}
