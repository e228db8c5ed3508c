import { Hono } from 'hono';
import { createReportBodySchema, REPORT_MSG, type CreateReportResponse } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { readBody } from '../../lib/validate';
import { reportUser } from './file';

/**
 * Attempts per user, refused or not: far above REPORT.perHour filed reports, low enough that nobody walks
 * user ids through the context checks.
 */
export const REPORT_ATTEMPT_RATE = { limit: 60, windowMs: 60 * 60_000 };

/**
 * `POST /api/reports` (mounted at /api/reports): a report from a direct chat, a call or the friends list.
 * Every signed-in account may report, verified or not: protecting oneself is never gated by the access
 * policy. Random rooms are reported over /ws by the random module (`fileReport`).
 */
export function reportRoutes(deps: AppDeps) {
  const attempts = deps.rates.limiter('reports.attempt', REPORT_ATTEMPT_RATE);
  return new Hono<AuthEnv>().post('/', requireUser(deps), async (c) => {
    const reporterId = c.get('user').id;
    await attempts.consume(reporterId, REPORT_MSG.tooMany);
    const body = await readBody(c, createReportBodySchema);
    const id = await deps.transactor.commit((tx) =>
      reportUser(tx, deps, {
        reporterId,
        reportedId: body.context.userId,
        context: body.context,
        reason: body.reason,
        note: body.note ?? null,
        block: body.block,
      }),
    );
    // The report may have set the automatic hold: a wait or room of the reported user ends with it.
    deps.realtime.accessChanged(body.context.userId);
    const answer: CreateReportResponse = { id, message: REPORT_MSG.sent };
    return c.json(answer, 201);
  });
}
