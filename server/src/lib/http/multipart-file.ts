import type { Context } from 'hono';
import { HttpError } from '../http-error';

/** What a route says when the file is missing or too large (each route has the spec's own words). */
export interface FileFieldRules {
  field: string;
  maxBytes: number;
  missing: string;
  tooLarge: string;
}

/**
 * A multipart form's file field (the route's body limit has already bounded the whole request): 400 with
 * `missing` when the body is not a form, the field is not a file or the file is empty; 413 with `tooLarge`
 * above `maxBytes`. Answers the file, whose bytes the caller reads and checks by content.
 */
export async function readFileField(c: Context, rules: FileFieldRules): Promise<File> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data'))
    throw new HttpError(400, rules.missing);
  let form: Record<string, string | File>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw new HttpError(400, rules.missing);
  }
  const file = form[rules.field];
  if (!(file instanceof File) || file.size === 0) throw new HttpError(400, rules.missing);
  if (file.size > rules.maxBytes) throw new HttpError(413, rules.tooLarge);
  return file;
}
