import { Hono } from 'hono';
import {
  adminReportsQuerySchema,
  clearHoldBodySchema,
  REPORT_MSG,
  reportDecisionSchema,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { requireAdmin, requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readId, readQuery } from '../../lib/http/request';
import { readBody } from '../../lib/validate';
import { listReports, reportDetail } from './admin-list';
import { clearRandomHold, decideReport } from './decide';
import { userExists } from './repo';

/** Decisions per admin: far above a reviewer's day, low enough to stop a runaway script. */
export const REPORT_DECISION_RATE = { limit: 600, windowMs: 60 * 60_000 };

/**
 * The admins' reports queue, mounted at /api/admin: every route authenticates itself (401 without a
 * session, 403 for students), so nothing here runs for the other /api/admin routes.
 */
export function reportAdminRoutes(deps: AppDeps) {
  const auth = requireUser(deps);
  const admin = requireAdmin();
  const decisions = deps.rates.limiter('reports.decision', REPORT_DECISION_RATE);
  const reportNotFound = new HttpError(404, REPORT_MSG.reportNotFound);
  const userNotFound = new HttpError(404, REPORT_MSG.notFound);

  return new Hono<AuthEnv>()
    .get('/reports', auth, admin, async (c) =>
      c.json(await listReports(deps, readQuery(c, adminReportsQuerySchema))),
    )
    .get('/reports/:id', auth, admin, async (c) =>
      c.json(await reportDetail(deps, readId(c, 'id', reportNotFound))),
    )
    .post('/reports/:id/decision', auth, admin, async (c) => {
      const adminId = c.get('user').id;
      await decisions.consume(adminId);
      const id = readId(c, 'id', reportNotFound);
      const decision = await readBody(c, reportDecisionSchema);
      return c.json(await decideReport(deps, adminId, id, decision));
    })
    .post('/users/:id/random-hold/clear', auth, admin, async (c) => {
      const adminId = c.get('user').id;
      await decisions.consume(adminId);
      const userId = readId(c, 'id', userNotFound);
      const { note } = await readBody(c, clearHoldBodySchema);
      if (!(await deps.transactor.read((tx) => userExists(tx, userId)))) throw userNotFound;
      const cleared = await clearRandomHold(deps, adminId, userId, note ? note : null);
      return c.json({ message: REPORT_MSG.holdCleared, cleared });
    });
}
