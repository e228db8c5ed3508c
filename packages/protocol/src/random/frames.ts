import { z } from 'zod';
import { sessionDescriptionSchema } from '../calls/frames';
import { frameId } from '../realtime/frame-parts';
import { focusedFiltersSchema } from './filters';

/**
 * Random and focused talk on `/ws` (issue 13; spec 001 sections 2-5 and 7). Ephemeral: queues, rooms and
 * relayed text live in the server's memory only. A room is named by an opaque `roomId`; the partner's user id
 * never reaches the client: Add Friend, Block and Report name the room, and the server resolves the partner.
 * The spec's field `type` (audio or video) travels as `kind`, since `type` names the frame.
 */

export const RANDOM_KINDS = ['audio', 'video', 'chat'] as const;
export const randomKindSchema = z.enum(RANDOM_KINDS);
export type RandomKind = z.infer<typeof randomKindSchema>;

/** The spec's Partner, as a stranger may see it: no id, no last name, no e-mail. */
export const randomPartnerSchema = z.object({
  firstName: z.string(),
  profilePictureUrl: z.string().nullable(),
  college: z.string().nullable(),
  course: z.string().nullable(),
});
export type RandomPartner = z.infer<typeof randomPartnerSchema>;

const roomId = frameId;

// ---- client → server ----

/*
 * `retry` on a Find (find-partner, join-random): the same Find sent again by a device that has heard nothing
 * back (no `random-queue`, match or refusal) for REALTIME_TIMING.unansweredRetryMs. With several nodes the
 * first may have died with the node coordinating random talk (issue 14), and a plain Find would start over:
 * end the room the first one got, or reset its wait. A retry is answered again instead when the first made it
 * (the wait's `random-queue` or the room's match, to this connection), and queues only when it did not.
 */

/** Queue for a random audio or video call (the spec: {type:'audio'} on audio, nothing on video). */
export const findPartnerFrameSchema = z.object({
  type: z.literal('find-partner'),
  kind: z.enum(['audio', 'video']).default('video'),
  /** Focused talk: match on these; absent or empty for random talk. */
  filters: focusedFiltersSchema.optional(),
  retry: z.literal(true).optional(),
});
/** Queue for a random text chat. */
export const joinRandomFrameSchema = z.object({
  type: z.literal('join-random'),
  filters: focusedFiltersSchema.optional(),
  retry: z.literal(true).optional(),
});
/** Stop waiting (Cancel, leaving the screen). */
export const leaveRandomQueueFrameSchema = z.object({ type: z.literal('leave-random-queue') });
/** End the room (End, End Chat, Back to Home, leaving the screen). */
export const leaveRandomRoomFrameSchema = z.object({ type: z.literal('leave-random-room'), roomId });
/**
 * Take this student's side of a live room back on this connection, after a dropped connection (a campus
 * network's cut, or a node that drained and sent its clients elsewhere). The server keeps a side for
 * RANDOM.reconnectGraceMs after its connection closed; it answers `random-resumed`, then the partner's lines
 * after the `heard` this device has (text rooms; as far as the server still keeps them), or the room's end
 * (`disconnected`) when it is no longer live for this student.
 */
export const randomResumeFrameSchema = z.object({
  type: z.literal('random-resume'),
  roomId,
  /** How many of the partner's lines this device has received in the room. */
  heard: z.number().int().min(0).max(1_000_000),
});
/** A line's number in a room: a sender's count of its own lines, or a side's count of the partner's. */
const lineNumber = z.number().int().min(1).max(1_000_000);
/**
 * Random text chat: relayed to the partner, never stored in the database (the room keeps its last lines for a
 * report and for a side taken back, with REDIS_URL in Redis too, so a coordinator that takes over has them).
 * `n`: this line's number among the sender's lines in the room (1, 2, …). A line sent again (the device's
 * resend after `random-resumed`, or a node's after a coordinator crash) with an `n` the room already has is
 * dropped, so the partner gets each line once. Without `n` (a device from before it) a line is relayed as it
 * comes and never sent again.
 */
export const randomChatMessageFrameSchema = z.object({
  type: z.literal('chat-message'),
  roomId,
  text: z.string().min(1).max(1000),
  n: lineNumber.optional(),
});
/** Typing in a random text room (the spec's typing / stop_typing {roomId}, sent under their own names). */
export const randomTypingFrameSchema = z.object({
  type: z.literal('random-typing'),
  roomId,
  typing: z.boolean(),
});
/**
 * WebRTC for audio/video rooms (the spec's names): the initiator sends its whole offer with `call-user`,
 * the other answers with `answer-call`; `end-call` ends the room. The server relays within the room only.
 */
export const callUserFrameSchema = z.object({
  type: z.literal('call-user'),
  roomId,
  signalData: sessionDescriptionSchema,
});
export const answerCallFrameSchema = z.object({
  type: z.literal('answer-call'),
  roomId,
  signal: sessionDescriptionSchema,
});
export const endCallFrameSchema = z.object({ type: z.literal('end-call'), roomId });
/** Video starts blurred: this side agrees to be seen (true) or takes it back (false). */
export const randomRevealFrameSchema = z.object({
  type: z.literal('random-reveal'),
  roomId,
  reveal: z.boolean(),
});
/**
 * After (or during) a room: Add Friend, Block or Report the partner of that room. Valid for the room's two
 * students for a while after it ended (the post-call screen). Report carries its reason, note and whether
 * to block too; for text rooms the server attaches the last relayed messages as evidence.
 */
export const RANDOM_ACTIONS = ['add-friend', 'block', 'report'] as const;
export const REPORT_REASON_VALUES = ['harassment', 'nudity', 'hate', 'spam', 'underage', 'other'] as const;
export const randomActionFrameSchema = z
  .object({
    type: z.literal('random-action'),
    roomId,
    action: z.enum(RANDOM_ACTIONS),
    /** Report only: why, an optional note, and whether to block too (the default). */
    reason: z.enum(REPORT_REASON_VALUES).optional(),
    note: z.string().max(500).optional(),
    block: z.boolean().default(true),
  })
  .refine((f) => f.action !== 'report' || f.reason !== undefined, 'a report needs a reason');

export const randomClientFrameSchemas = [
  findPartnerFrameSchema,
  joinRandomFrameSchema,
  leaveRandomQueueFrameSchema,
  leaveRandomRoomFrameSchema,
  randomResumeFrameSchema,
  randomChatMessageFrameSchema,
  randomTypingFrameSchema,
  callUserFrameSchema,
  answerCallFrameSchema,
  endCallFrameSchema,
  randomRevealFrameSchema,
  randomActionFrameSchema,
] as const;
export type RandomActionFrame = z.infer<typeof randomActionFrameSchema>;
export type FindPartnerFrame = z.infer<typeof findPartnerFrameSchema>;
export type JoinRandomFrame = z.infer<typeof joinRandomFrameSchema>;
export type RandomClientFrame = z.infer<(typeof randomClientFrameSchemas)[number]>;

// ---- server → client ----

/** Waiting in a queue: sent on joining and whenever the search widens (focused talk). */
export const randomQueueFrameSchema = z.object({
  type: z.literal('random-queue'),
  kind: randomKindSchema,
  /** When this student started waiting (ISO): the 60 s finding countdown counts from here. */
  since: z.string(),
  /** Focused talk: how many filter groups still bind (it drops as the search widens); 0 for random. */
  binding: z.number().int().min(0),
  /** True once the search has widened past the chosen filters (the UI says so). */
  widened: z.boolean(),
});
/** A partner for an audio or video room; the initiator creates the offer. `endsAt`: the server's deadline. */
export const partnerFoundFrameSchema = z.object({
  type: z.literal('partner-found'),
  roomId,
  kind: z.enum(['audio', 'video']),
  isInitiator: z.boolean(),
  partner: randomPartnerSchema,
  endsAt: z.string(),
  /** Focused talk: how many of the chosen filter groups the partner satisfies (of how many chosen). */
  matched: z.object({ satisfied: z.number().int(), chosen: z.number().int() }).optional(),
});
/** A partner for a text room. */
export const randomMatchedFrameSchema = z.object({
  type: z.literal('random-matched'),
  roomId,
  partner: randomPartnerSchema,
  matched: z.object({ satisfied: z.number().int(), chosen: z.number().int() }).optional(),
});
/**
 * The side is this connection's again (the answer to random-resume). `said`: how many of this student's
 * lines the room has (text rooms; the highest `n` relayed): the device sends its later ones again. Optional,
 * as `i` below, for a device newer than its server (the desktop app): a server without them neither drops a
 * line sent again nor numbers what it sends, so such a device resends nothing and drops nothing.
 */
export const randomResumedFrameSchema = z.object({
  type: z.literal('random-resumed'),
  roomId,
  said: z.number().int().min(0).max(1_000_000).optional(),
});
/**
 * A message of the partner's (the sender shows its own at once). `i`: its number among the partner's lines
 * relayed to this side (1, 2, …): a line the device already has (i at or below its count, sent again after
 * a coordinator crash) is dropped.
 */
export const randomChatMessageServerFrameSchema = z.object({
  type: z.literal('chat-message'),
  roomId,
  text: z.string(),
  timestamp: z.string(),
  i: lineNumber.optional(),
});
export const randomPeerTypingFrameSchema = z.object({
  type: z.literal('random-typing'),
  roomId,
  typing: z.boolean(),
});
/** The partner's whole offer (to the non-initiator) and answer (to the initiator). */
export const incomingRandomCallFrameSchema = z.object({
  type: z.literal('incoming-call'),
  roomId,
  signal: sessionDescriptionSchema,
});
export const callAcceptedFrameSchema = z.object({
  type: z.literal('call-accepted'),
  roomId,
  signal: sessionDescriptionSchema,
});

/**
 * Why a room (or a wait) ended:
 * - left: the partner ended it (End, End Chat, leaving the screen); you_left: this student did;
 * - disconnected: the partner's connection stayed down past the grace period;
 * - time_limit: the 600 s of an audio or video room ran out (server-enforced);
 * - other_device: this student started random talk on another device;
 * - restricted: random talk is not allowed for this account now (`error` says why, with the date).
 */
export const RANDOM_END_REASONS = [
  'left',
  'you_left',
  'disconnected',
  'time_limit',
  'other_device',
  'restricted',
] as const;
export const randomEndReasonSchema = z.enum(RANDOM_END_REASONS);
export type RandomEndReason = z.infer<typeof randomEndReasonSchema>;
/** The spec's call-ended (audio/video rooms) and random-chat-ended (text rooms), one shape. */
export const callEndedRandomFrameSchema = z.object({
  type: z.literal('call-ended'),
  roomId,
  reason: randomEndReasonSchema,
});
export const randomChatEndedFrameSchema = z.object({
  type: z.literal('random-chat-ended'),
  roomId,
  reason: randomEndReasonSchema,
});
/** Reveal state of a video room: the partner agreed (`partner`), and both did (`both`: unblur). */
export const randomRevealStateFrameSchema = z.object({
  type: z.literal('random-reveal'),
  roomId,
  partner: z.boolean(),
  both: z.boolean(),
});
/** Queueing was refused (not verified, profile incomplete, restricted, a limit): `error` is the text to show. */
export const randomRefusedFrameSchema = z.object({
  type: z.literal('random-refused'),
  code: z.enum(['verification', 'profile', 'restricted', 'rateLimited', 'unavailable']),
  error: z.string(),
});
/** The answer to a random-action (Add Friend, Block, Report): the message to show. */
export const randomActionResultFrameSchema = z.object({
  type: z.literal('random-action-result'),
  roomId,
  action: z.enum(RANDOM_ACTIONS),
  ok: z.boolean(),
  message: z.string(),
});

export const randomServerFrameSchemas = [
  randomQueueFrameSchema,
  partnerFoundFrameSchema,
  randomMatchedFrameSchema,
  randomResumedFrameSchema,
  randomChatMessageServerFrameSchema,
  randomPeerTypingFrameSchema,
  incomingRandomCallFrameSchema,
  callAcceptedFrameSchema,
  callEndedRandomFrameSchema,
  randomChatEndedFrameSchema,
  randomRevealStateFrameSchema,
  randomRefusedFrameSchema,
  randomActionResultFrameSchema,
] as const;
export type RandomServerFrame = z.infer<(typeof randomServerFrameSchemas)[number]>;
export type PartnerFoundFrame = z.infer<typeof partnerFoundFrameSchema>;
export type RandomMatchedFrame = z.infer<typeof randomMatchedFrameSchema>;

export const RANDOM = {
  /** Audio and video rooms end here, enforced by the server (the 'free left' countdown starts from it). */
  roomLimitSeconds: 600,
  /** The finding countdown's display (spec); the wait goes on if the student keeps waiting. */
  findingSeconds: 60,
  /** Random chat typing stops 1.2 s after the last keystroke (spec). */
  typingStopMs: 1200,
  /** Not the same pair again within this long, unless nobody else has been waiting this long. */
  rematchCooldownMs: 30 * 60_000,
  rematchFallbackAfterMs: 20_000,
  /** Focused talk drops one filter group (the least selective) every this long without a match. */
  widenEveryMs: 10_000,
  /** A room's partner may be reconnecting this long before the room ends as disconnected. */
  reconnectGraceMs: 5_000,
  /** Add Friend, Block and Report stay possible this long after a room ended (the post-call screen). */
  postRoomActionsMs: 15 * 60_000,
  /** Relayed text kept per text room, for a report only. */
  evidenceMessages: 50,
} as const;

export const RANDOM_MSG = {
  /** The spec's texts. */
  audioIdle: 'Ready to meet a fellow student?',
  startAudio: 'Start Random Audio Call',
  findingMatch: 'Finding your match…',
  fallbackCollege: 'Verified campus network',
  fallbackCourse: 'Students-only room',
  beKind: 'Be kind. Students-only space.',
  greatChat: 'Great chat!',
  startNewCall: 'Start New Call',
  backToHome: 'Back to Home',
  videoTitle: 'Random 1:1 Video Call',
  startVideo: 'Start Random Call',
  findingRandomUser: 'Finding a random user...',
  endCall: 'End Call',
  videoSheet: 'What would you like to do?',
  done: 'Done',
  chatIdle: 'Ready to text a fellow student?',
  chatIdleSub: 'Instant, anonymous, student-only chat. Be kind.',
  startChat: 'Start Random Chat',
  typeMessage: 'Type a message',
  endChat: 'End Chat',
  niceChat: 'Nice chat!',
  startNewChat: 'Start New Chat',
  findingSomeone: 'Finding someone for you...',
  findingPerfect: 'Finding your perfect match...',
  freeLeft: 'free left',
  /** This product's own. */
  noOneFound: 'No one is free right now.',
  keepWaiting: 'Keep waiting',
  widened: 'Widening the search: not everyone matches all your filters.',
  reveal: 'Reveal',
  blurAgain: 'Blur',
  blurredHint: 'Video stays blurred until you both press Reveal.',
  partnerRevealed: 'They pressed Reveal.',
  partnerLeft: 'Your partner left.',
  partnerDisconnected: 'Your partner lost their connection.',
  timeLimit: 'Time is up: random calls last 10 minutes.',
  otherDevice: 'Random talk continued on another device.',
  verificationRequired: 'Random talk is for verified students. Upload your student ID to join.',
  profileIncomplete: 'Complete your profile (college, course and year) to use Random Talk.',
  notAuthenticated: 'Not authenticated',
  /** A random-action for a room this student was not in, or that ended too long ago. */
  roomGone: 'This chat is over: Add Friend, Block and Report are no longer available for it.',
  /** Queueing refused for another reason (the account is gone, the server is stopping). */
  unavailable: 'Random talk is not available right now. Please try again.',
} as const;
