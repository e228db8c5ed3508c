import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { CONFESSION_SERVER_MSG } from '@campus/protocol';
import { HttpError } from '../../lib/http-error';

type RefusalStatus = Extract<ContentfulStatusCode, 400 | 403 | 404 | 409 | 429>;

/**
 * A confession write the rules refuse, thrown before anything is written. It is an HttpError so a REST
 * route answers it as is; a realtime mutation sends its `message` (the spec's text) in `message_error`.
 */
export class ConfessionRefusal extends HttpError {
  constructor(status: RefusalStatus, message: string) {
    super(status, message);
    this.name = 'ConfessionRefusal';
  }
}

export const refusals = {
  notFound: () => new ConfessionRefusal(404, CONFESSION_SERVER_MSG.confessionNotFound),
  nicknameRequired: () => new ConfessionRefusal(403, CONFESSION_SERVER_MSG.nicknameRequired),
  notAuthor: () => new ConfessionRefusal(403, CONFESSION_SERVER_MSG.notAuthor),
  nicknameTaken: () => new ConfessionRefusal(409, CONFESSION_SERVER_MSG.nicknameTaken),
  /** A client id already used by someone else, or for something else: it can never be stored. */
  idConflict: () => new ConfessionRefusal(409, 'This id is already in use.'),
};
