import { Hono } from 'hono';
import { z } from 'zod';
import { adminDocumentsQuerySchema, documentDecisionSchema } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { requireAdmin, requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readBody } from '../../lib/validate';
import { documentItem, documentUrl, listDocuments } from './admin-list';
import { decideDocument } from './decisions';

/** Decisions per admin: far above a reviewer's day, low enough to stop a runaway script. */
export const DOCUMENT_DECISION_RATE = { limit: 600, windowMs: 60 * 60_000 };

const documentUrlQuerySchema = z.object({ userId: z.string().min(1).max(64) });

function parseQuery<S extends z.ZodType>(schema: S, raw: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid request.');
  return parsed.data;
}

/**
 * The admin review (`/api/upload/admin/*`): admins only (401 without a session, 403 for students). The
 * list, a short-lived URL of a student's current document, and the decision, which answers the student's
 * item as the list shows it.
 */
export function adminRoutes(deps: AppDeps) {
  const decisions = deps.rates.limiter('verification.decision', DOCUMENT_DECISION_RATE);
  return new Hono<AuthEnv>()
    .use(requireUser(deps))
    .use(requireAdmin())
    .get('/documents', async (c) => {
      const query = parseQuery(adminDocumentsQuerySchema, c.req.query());
      return c.json(await listDocuments(deps, query));
    })
    .get('/document-url', async (c) => {
      const { userId } = parseQuery(documentUrlQuerySchema, c.req.query());
      return c.json(await documentUrl(deps, userId));
    })
    .patch('/documents/:userId', async (c) => {
      await decisions.consume(c.get('user').id);
      const decision = await readBody(c, documentDecisionSchema);
      const userId = c.req.param('userId');
      await decideDocument(deps, c.get('user').id, userId, decision);
      return c.json(await documentItem(deps, userId));
    });
}
