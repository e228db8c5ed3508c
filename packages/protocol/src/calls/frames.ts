import { z } from 'zod';
import { userRefSchema } from '../chat/entities';
import { changeFields, frameId } from '../realtime/frame-parts';
import { CALL, callLogSchema, callTypeSchema } from './wire';

/**
 * Call signalling on `/ws` (issue 12). Ephemeral: never stored, never queued offline (a call needs the
 * connection). Descriptions go whole (the spec: no incremental candidates). Every frame names its call by a
 * `callId` the caller generates (a UUID); a device acts only on frames of the call it holds, which is how
 * the callee's other devices stop ringing and the caller's other devices stay quiet.
 */

/** A whole session description as simple-peer emits it with trickle off. */
export const sessionDescriptionSchema = z.object({
  type: z.enum(['offer', 'answer']),
  sdp: z.string().min(1).max(CALL.maxSdpChars),
});
export type SessionDescription = z.infer<typeof sessionDescriptionSchema>;

// ---- client → server ----

/**
 * The spec's call:offer {to, from, type, signal}: `from` is the signed-in user, so the server sets it.
 * `retry`: the same offer sent again by a caller that has heard nothing back (no `call:placed`, nor an end)
 * for REALTIME_TIMING.unansweredRetryMs: with several nodes the first may have died with the node that
 * coordinates calls (issue 14). The server answers it again (`call:placed`) if the first arrived, and places
 * it if not; it never rings the callee twice for one call id.
 */
export const callOfferFrameSchema = z.object({
  type: z.literal('call:offer'),
  callId: z.uuid(),
  to: frameId,
  callType: callTypeSchema,
  signal: sessionDescriptionSchema.refine((s) => s.type === 'offer', 'call:offer carries an offer'),
  retry: z.literal(true).optional(),
});
/** The callee's device takes the call: the first answer wins, the callee's other devices stop ringing. */
export const callAnswerFrameSchema = z.object({
  type: z.literal('call:answer'),
  callId: z.uuid(),
  to: frameId,
  signal: sessionDescriptionSchema.refine((s) => s.type === 'answer', 'call:answer carries an answer'),
});
export const callRejectFrameSchema = z.object({
  type: z.literal('call:reject'),
  callId: z.uuid(),
  to: frameId,
});
/** Either side hangs up (the caller while it rings: a cancel). `failed`: the peer connection broke. */
export const callEndFrameSchema = z.object({
  type: z.literal('call:end'),
  callId: z.uuid(),
  to: frameId,
  reason: z.enum(['ended', 'failed']).default('ended'),
});
/** After a reconnect, the device still in a call binds its new connection to it (within the grace period). */
export const callResumeFrameSchema = z.object({ type: z.literal('call:resume'), callId: z.uuid() });

export const callClientFrameSchemas = [
  callOfferFrameSchema,
  callAnswerFrameSchema,
  callRejectFrameSchema,
  callEndFrameSchema,
  callResumeFrameSchema,
] as const;
export type CallOfferFrame = z.infer<typeof callOfferFrameSchema>;
export type CallAnswerFrame = z.infer<typeof callAnswerFrameSchema>;
export type CallRejectFrame = z.infer<typeof callRejectFrameSchema>;
export type CallEndFrame = z.input<typeof callEndFrameSchema>;
export type CallResumeFrame = z.infer<typeof callResumeFrameSchema>;
export type CallClientFrame =
  CallOfferFrame | CallAnswerFrame | CallRejectFrame | z.infer<typeof callEndFrameSchema> | CallResumeFrame;

// ---- server → client ----

/** The spec's incoming call: to every device of the callee. `from` is the caller's public card. */
export const incomingCallFrameSchema = z.object({
  type: z.literal('call:offer'),
  callId: z.uuid(),
  from: userRefSchema,
  callType: callTypeSchema,
  signal: sessionDescriptionSchema,
});
/** The callee answered: to the caller's calling device only. */
export const callAnsweredFrameSchema = z.object({
  type: z.literal('call:answer'),
  callId: z.uuid(),
  from: z.string(),
  signal: sessionDescriptionSchema,
});
/** The callee rejected: the caller's overlay shows 'Call Rejected'. */
export const callRejectedFrameSchema = z.object({
  type: z.literal('call:reject'),
  callId: z.uuid(),
  from: z.string(),
});

/**
 * Why a call ended, for the device that holds it:
 * - ended: the other side hung up; cancelled: the caller hung up while it rang;
 * - no_answer: nobody answered in time; busy: the callee is in another call;
 * - answered_elsewhere / rejected_elsewhere: another of the callee's devices took or refused it (stop ringing);
 * - lost: a side's connection stayed down past the grace period; failed: the other side could not connect;
 * - refused: the server did not place the call (`error` says why: not a contact, already in a call, a limit);
 * - unknown: the call is over or was never this device's (a resume too late).
 */
export const CALL_END_REASONS = [
  'ended',
  'cancelled',
  'no_answer',
  'busy',
  'answered_elsewhere',
  'rejected_elsewhere',
  'lost',
  'failed',
  'refused',
  'unknown',
] as const;
export const callEndReasonSchema = z.enum(CALL_END_REASONS);
export type CallEndReason = z.infer<typeof callEndReasonSchema>;
export const callEndedFrameSchema = z.object({
  type: z.literal('call:end'),
  callId: z.uuid(),
  reason: callEndReasonSchema,
  /** Text to show, for `refused` (and the other reasons where the overlay says something). */
  error: z.string().optional(),
});
/**
 * The offer was taken and the call placed (to the caller's calling device, before `call:ringing`, whether or
 * not the callee is reachable): the caller stops sending the offer again.
 */
export const callPlacedFrameSchema = z.object({ type: z.literal('call:placed'), callId: z.uuid() });
/** The call is ringing on at least one of the callee's devices (the caller's overlay may say so). */
export const callRingingFrameSchema = z.object({ type: z.literal('call:ringing'), callId: z.uuid() });
/** A `call:resume` was accepted: the call goes on with this connection. */
export const callResumedFrameSchema = z.object({ type: z.literal('call:resumed'), callId: z.uuid() });

export const callServerFrameSchemas = [
  incomingCallFrameSchema,
  callAnsweredFrameSchema,
  callRejectedFrameSchema,
  callEndedFrameSchema,
  callPlacedFrameSchema,
  callRingingFrameSchema,
  callResumedFrameSchema,
] as const;
export type IncomingCallFrame = z.infer<typeof incomingCallFrameSchema>;
export type CallAnsweredFrame = z.infer<typeof callAnsweredFrameSchema>;
export type CallRejectedFrame = z.infer<typeof callRejectedFrameSchema>;
export type CallEndedFrame = z.infer<typeof callEndedFrameSchema>;
export type CallPlacedFrame = z.infer<typeof callPlacedFrameSchema>;
export type CallRingingFrame = z.infer<typeof callRingingFrameSchema>;
export type CallResumedFrame = z.infer<typeof callResumedFrameSchema>;
export type CallServerFrame =
  | IncomingCallFrame
  | CallAnsweredFrame
  | CallRejectedFrame
  | CallEndedFrame
  | CallPlacedFrame
  | CallRingingFrame
  | CallResumedFrame;

// ---- change log ----

/** The server logged a call: to the caller's and the callee's devices (the callee's not when they blocked). */
export const callLoggedChangeSchema = z.object({
  type: z.literal('call_logged'),
  ...changeFields,
  log: callLogSchema,
});
export const callChangeSchemas = [callLoggedChangeSchema] as const;
export type CallLoggedChange = z.infer<typeof callLoggedChangeSchema>;
