import { REALTIME_ERRORS } from '../chat/messages';

/**
 * Why a frame or a mutation was refused: `message_error.code`. Clients branch on the code; `error` is the
 * text to show (the reason's catalogue text, or a more specific one such as the spec's confession messages).
 */
export type RealtimeErrorReason = keyof typeof REALTIME_ERRORS;
export const REALTIME_ERROR_REASONS = Object.keys(REALTIME_ERRORS) as [
  RealtimeErrorReason,
  ...RealtimeErrorReason[],
];
