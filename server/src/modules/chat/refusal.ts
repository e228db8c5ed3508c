import { REALTIME_ERRORS, type RealtimeErrorReason } from '@campus/protocol';

/**
 * A write the rules refuse; `message` is the text `message_error` carries (the reason's catalogue text
 * unless a refusal names someone). Thrown before anything is written.
 */
export class ChatRefusal extends Error {
  constructor(
    readonly reason: RealtimeErrorReason,
    message: string = REALTIME_ERRORS[reason],
  ) {
    super(message);
    this.name = 'ChatRefusal';
  }
}
