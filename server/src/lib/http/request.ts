import type { Context } from 'hono';
import { z } from 'zod';
import { HttpError } from '../http-error';

/** Ids in paths are UUIDs or similar opaque strings; anything else is not one of ours. */
const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid request.';
}

/** Parses the query string with its protocol schema; a failure answers 400 with the first message. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new HttpError(400, firstIssue(parsed.error));
  return parsed.data;
}

/**
 * A path id. A malformed one cannot name anything, so it answers like an unknown one (`notFound`),
 * keeping the route's own wording.
 */
export function readId(c: Context, name: string, notFound: HttpError): string {
  const parsed = idSchema.safeParse(c.req.param(name));
  if (!parsed.success) throw notFound;
  return parsed.data;
}
