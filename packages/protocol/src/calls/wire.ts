import { z } from 'zod';
import { userRefSchema } from '../chat/entities';

/**
 * Calls between two students (issue 12; spec 001 sections 3-4 and 7, spec 000 Call screen and Call history).
 * The spec's `type` of a call travels as `callType`, since `type` names the frame.
 */
export const CALL_TYPES = ['audio', 'video'] as const;
export const callTypeSchema = z.enum(CALL_TYPES);
export type CallType = z.infer<typeof callTypeSchema>;

/**
 * How a call ended, as the server logs it (the clients never write the log):
 * - completed: answered, then ended by either side (or by a connection lost past the grace period);
 * - missed: the caller hung up while it rang on at least one of the callee's devices, or the callee was busy;
 * - no_answer: rang for CALL.ringTimeoutMs (or had nowhere to ring) with no answer;
 * - rejected: the callee rejected it;
 * - cancelled: the caller hung up before it could ring anywhere;
 * - failed: answered, but a side reported that the connection could not be made, or the caller's
 *   connection was lost while ringing.
 * The spec shows missed, no_answer and rejected as 'Missed' with duration '--:--'.
 */
export const CALL_LOG_STATUSES = [
  'completed',
  'missed',
  'no_answer',
  'rejected',
  'cancelled',
  'failed',
] as const;
export const callLogStatusSchema = z.enum(CALL_LOG_STATUSES);
export type CallLogStatus = z.infer<typeof callLogStatusSchema>;

/** The spec's Call log: id, status, callType, caller, callee, startedAt, duration in seconds. */
export const callLogSchema = z.object({
  id: z.string(),
  status: callLogStatusSchema,
  callType: callTypeSchema,
  caller: userRefSchema,
  callee: userRefSchema,
  /** When the call was placed (ISO 8601). */
  startedAt: z.string(),
  /** Seconds from the answer to the end; 0 for a call never answered. */
  duration: z.number().int().min(0),
});
export type CallLog = z.infer<typeof callLogSchema>;

/**
 * `GET /api/users/call-logs?before={cursor}&limit={n}`: newest first. `nextBefore` is the cursor of the
 * next (older) page, null at the end.
 */
export const callLogsPageSchema = z.object({
  logs: z.array(callLogSchema),
  nextBefore: z.string().nullable(),
});
export type CallLogsPage = z.infer<typeof callLogsPageSchema>;
export const callLogsQuerySchema = z.object({
  before: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
});

/**
 * `GET /api/rtc/config`: the ICE servers to use. STUN/TURN from the server's TURN_URLS with short-lived
 * TURN REST credentials (username `expiry:userId`, credential base64(HMAC-SHA1(TURN_SECRET, username)), as
 * coturn's use-auth-secret checks them); an empty list without them (host candidates only). Never a
 * third-party STUN server.
 */
export const iceServerSchema = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServerConfig = z.infer<typeof iceServerSchema>;
export const rtcConfigSchema = z.object({
  iceServers: z.array(iceServerSchema),
  /** Seconds the TURN credentials stay valid (0 without TURN). */
  ttl: z.number().int().min(0),
});
export type RtcConfig = z.infer<typeof rtcConfigSchema>;

export const CALL = {
  /** A call that rings this long unanswered ends as no_answer. */
  ringTimeoutMs: 30_000,
  /** A party's socket may drop for this long (campus networks) before the server ends the call. */
  reconnectGraceMs: 10_000,
  /** A peer connection 'disconnected' this long ends the call on the client. */
  iceDisconnectedMs: 8_000,
  /** Video call controls hide after this long without a pointer move (spec 000 section 9). */
  controlsHideMs: 3_000,
  /** Whole session descriptions (non-trickle) are bounded: a frame is at most 64 KB. */
  maxSdpChars: 48_000,
  /** Call offers a student may place per hour (a bot ringing everyone). */
  offersPerHour: 60,
  /** TURN credentials' lifetime. */
  turnCredentialTtlSeconds: 3_600,
  pageSize: 30,
} as const;

export const CALL_MSG = {
  /** The spec's texts. */
  calling: (firstName: string, lastName: string) => `Calling ${`${firstName} ${lastName}`.trim()}…`,
  callKind: (callType: CallType) => (callType === 'video' ? 'Video Call' : 'Audio Call'),
  rejected: 'Call Rejected',
  unableToLoad: 'Unable to load call data',
  goBack: 'Go Back',
  fetchLogsFailed: 'Failed to fetch call logs.',
  noCalls: 'No calls yet',
  missed: 'Missed',
  noDuration: '--:--',
  connecting: 'Connecting',
  live: 'Live',
  /** Section 5: microphone for every call, camera for video calls. */
  microphoneRequired: 'Microphone access is required for calls.',
  cameraRequired: 'Camera access is required for video calls.',
  /** This product's own answers. */
  notAllowed: 'You can only call friends or people you chat with.',
  youBlocked: 'You blocked this user. Unblock them to call.',
  alreadyInCall: 'You are already in a call.',
  busy: 'They are on another call.',
  noAnswer: 'No answer.',
  unavailable: 'The call ended because the connection was lost.',
  failed: 'The call could not be connected.',
  ended: 'Call ended.',
  rateLimited: 'You are placing calls too fast. Try again later.',
  notConnected: 'You are offline. Calls need a connection.',
} as const;
