import { Hono } from 'hono';
import type { z } from 'zod';
import {
  COLLEGE_ADMIN_MSG,
  approveCollegeSchema,
  collegeIdSchema,
  manualCollegesQuerySchema,
  mergeCollegeSchema,
} from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { requireAdmin, requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readBody } from '../../lib/validate';
import { approveCollege, listManualColleges, mergeCollege } from './admin';

const HOUR = 60 * 60_000;
/** Pages of the list per admin: each scans the users' colleges once; far above a reviewer's browsing. */
export const MANUAL_COLLEGES_LIST_RATE = { limit: 1200, windowMs: HOUR };
/** Approvals and merges per admin: far above a reviewer's day, low enough to stop a runaway script. */
export const COLLEGE_DECISION_RATE = { limit: 600, windowMs: HOUR };

function parse<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new HttpError(400, parsed.error.issues[0]?.message ?? COLLEGE_ADMIN_MSG.invalidId);
  return parsed.data;
}

/**
 * The admins' review of colleges typed in by students (`/api/admin/colleges/*`): admins only (401 without
 * a session, 403 for students). The list of manual colleges, and per college approve or merge.
 */
export function collegeAdminRoutes(deps: AppDeps) {
  const reads = deps.rates.limiter('colleges.manual-list', MANUAL_COLLEGES_LIST_RATE);
  const decisions = deps.rates.limiter('colleges.decision', COLLEGE_DECISION_RATE);
  return new Hono<AuthEnv>()
    .use(requireUser(deps))
    .use(requireAdmin())
    .get('/manual', async (c) => {
      await reads.consume(c.get('user').id);
      return c.json(await listManualColleges(deps, parse(manualCollegesQuerySchema, c.req.query())));
    })
    .post('/:id/approve', async (c) => {
      await decisions.consume(c.get('user').id);
      const id = parse(collegeIdSchema, c.req.param('id'));
      const body = await readBody(c, approveCollegeSchema);
      const college = await approveCollege(deps, id, body);
      deps.log.info({ adminId: c.get('user').id, collegeId: id }, 'colleges: manual college approved');
      return c.json({ college });
    })
    .post('/:id/merge', async (c) => {
      await decisions.consume(c.get('user').id);
      const id = parse(collegeIdSchema, c.req.param('id'));
      const { into } = await readBody(c, mergeCollegeSchema);
      const merged = await mergeCollege(deps, id, into);
      deps.log.info(
        { adminId: c.get('user').id, collegeId: id, into, students: merged.students },
        'colleges: manual college merged',
      );
      return c.json(merged);
    });
}
