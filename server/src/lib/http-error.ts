import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** An error whose message is safe to show the client, with the status to answer and optional extra fields. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
