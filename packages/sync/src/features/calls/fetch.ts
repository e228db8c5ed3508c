import { CALL, CALL_MSG, callLogsPageSchema } from '@campus/protocol';
import type { RestContext } from '../../feature-contract';

/** What a page of call history leaves to load: the cursor of the next (older) page, null at the end. */
export interface CallLogsLoad {
  nextBefore: string | null;
}

/**
 * `GET /api/users/call-logs` (newest first), page `before` (the first page without it), into db.callLogs.
 * Rejects with the spec's 'Failed to fetch call logs.'; what was cached stays readable.
 */
export async function loadCallLogs(ctx: RestContext, before?: string): Promise<CallLogsLoad> {
  const failed = new Error(CALL_MSG.fetchLogsFailed);
  const query = new URLSearchParams({ limit: String(CALL.pageSize) });
  if (before !== undefined) query.set('before', before);
  let body: unknown;
  try {
    const res = await ctx.fetchImpl(`${ctx.baseUrl}/api/users/call-logs?${query.toString()}`, {
      headers: { Authorization: `Bearer ${ctx.token}` },
    });
    if (!res.ok) throw failed;
    body = await res.json();
  } catch {
    throw failed;
  }
  const parsed = callLogsPageSchema.safeParse(body);
  if (!parsed.success) throw failed;
  await ctx.db.callLogs.bulkPut(parsed.data.logs);
  return { nextBefore: parsed.data.nextBefore };
}
