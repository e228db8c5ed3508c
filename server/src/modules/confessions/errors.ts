import { CONFESSION_SERVER_MSG, SERVER_MSG } from '@campus/protocol';
import { Refusal } from '../../lib/refusal';

/**
 * The confession refusals: an enumerated code for clients to branch on, the spec's text to show. Thrown
 * before anything is written; REST answers them with their status, the outbox with `message_error`.
 */
export const refusals = {
  notFound: () => new Refusal('notFound', 404, CONFESSION_SERVER_MSG.confessionNotFound),
  nicknameRequired: () => new Refusal('forbidden', 403, CONFESSION_SERVER_MSG.nicknameRequired),
  notAuthor: () => new Refusal('forbidden', 403, CONFESSION_SERVER_MSG.notAuthor),
  nicknameTaken: () => new Refusal('conflict', 409, CONFESSION_SERVER_MSG.nicknameTaken),
  /** A client id already used by someone else, or for something else: it can never be stored. */
  idConflict: () => new Refusal('conflict', 409),
  invalid: (message: string) => new Refusal('invalid', 400, message),
  rateLimited: () => new Refusal('rateLimited', 429, SERVER_MSG.tooManyRequests),
};
