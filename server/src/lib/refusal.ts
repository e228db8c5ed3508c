import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { REALTIME_ERRORS, type RealtimeErrorReason } from '@campus/protocol';
import { HttpError } from './http-error';

export type RefusalStatus = Extract<ContentfulStatusCode, 400 | 403 | 404 | 409 | 413 | 429>;

/**
 * A write the rules refuse, thrown before anything is written. One class for every feature and both doors:
 * a REST route answers it as `{ error: message }` with `status` (it is an HttpError), a realtime mutation as
 * `message_error { code, error: message }`. `message` is the reason's catalogue text unless a feature has a
 * more specific one (the spec's confession messages, a name in the awaiting-reply text).
 */
export class Refusal extends HttpError {
  constructor(
    readonly code: RealtimeErrorReason,
    status: RefusalStatus,
    message: string = REALTIME_ERRORS[code],
    extra?: Record<string, unknown>,
  ) {
    super(status, message, extra);
    this.name = 'Refusal';
  }
}
