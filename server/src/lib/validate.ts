import type { Context } from 'hono';
import type { z } from 'zod';
import { SERVER_MSG } from '@campus/protocol';
import { HttpError } from './http-error';

/**
 * Parses the JSON body with its protocol schema. A failure answers 400 with the first message,
 * which is the spec's wording where the schema carries one.
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new HttpError(400, SERVER_MSG.invalidJson);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid request.');
  return parsed.data;
}
