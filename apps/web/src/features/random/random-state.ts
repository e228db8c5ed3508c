import {
  RANDOM,
  RANDOM_MSG,
  type FocusedFilters,
  type PartnerFoundFrame,
  type RandomMatchedFrame,
  type RandomEndReason,
  type RandomKind,
  type RandomPartner,
} from '@campus/protocol';

/**
 * idle → finding (Start) → connected (partner-found / random-matched) → post (the room ended, either side).
 * 'starting' covers the media permission and the first frame (Start is not pressed twice).
 */
export type RandomPhase = 'idle' | 'starting' | 'finding' | 'connected' | 'post';

export interface RandomChatLine {
  id: number;
  mine: boolean;
  text: string;
  /** ISO: the server's time for the partner's lines, this device's for its own. */
  timestamp: string;
}

export interface RevealState {
  /** This side agreed to be seen (as last sent). */
  mine: boolean;
  /** The partner agreed. */
  partner: boolean;
  /** Both did, as the server says: the videos go clear. */
  both: boolean;
}

/** Why the room is over: the server's reason, or this device lost its connection. */
export type RoomEnd = RandomEndReason | 'connection';

export interface RandomState {
  kind: RandomKind;
  phase: RandomPhase;
  /** Focused talk's filters (absent for random talk). */
  filters: FocusedFilters | null;
  /** starting: Start waits for the realtime connection to come up (it can be cancelled then). */
  awaitingConnection: boolean;
  /** finding: when the wait started (this device's clock). */
  findingSince: number | null;
  /** finding: the 60 s countdown ran out (until Keep waiting). */
  noOneFound: boolean;
  /** finding: the student chose to keep waiting past the countdown. */
  keptWaiting: boolean;
  /** finding: focused talk's search widened past the chosen filters. */
  widened: boolean;
  roomId: string | null;
  partner: RandomPartner | null;
  matched: { satisfied: number; chosen: number } | null;
  /** connected: when the room started, and its deadline (audio/video), on this device's clock. */
  startedAt: number | null;
  endsAt: number | null;
  /** The media flows (the peer connected). */
  mediaConnected: boolean;
  /** connected: the realtime connection dropped and the room is kept until it is back (random-resume). */
  reconnecting: boolean;
  messages: RandomChatLine[];
  partnerTyping: boolean;
  reveal: RevealState;
  isMuted: boolean;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  ended: RoomEnd | null;
  /** A refusal or failure to show (media permission, offline, the server's random-refused). */
  error: string | null;
  errorCode: 'verification' | 'profile' | 'restricted' | 'rateLimited' | 'unavailable' | 'media' | null;
  /** The answer to the last Add Friend, Block or Report. */
  actionResult: { ok: boolean; message: string } | null;
}

export const NO_REVEAL: RevealState = { mine: false, partner: false, both: false };

export function initialState(kind: RandomKind, filters: FocusedFilters | null): RandomState {
  return {
    kind,
    phase: 'idle',
    filters,
    awaitingConnection: false,
    findingSince: null,
    noOneFound: false,
    keptWaiting: false,
    widened: false,
    roomId: null,
    partner: null,
    matched: null,
    startedAt: null,
    endsAt: null,
    mediaConnected: false,
    reconnecting: false,
    messages: [],
    partnerTyping: false,
    reveal: NO_REVEAL,
    isMuted: false,
    localStream: null,
    remoteStream: null,
    ended: null,
    error: null,
    errorCode: null,
    actionResult: null,
  };
}

/** The server's deadline as time left, within [0, limit] (a skewed clock cannot make it longer). */
function remaining(endsAt: string, now: number): number {
  const limit = RANDOM.roomLimitSeconds * 1000;
  const ms = Date.parse(endsAt) - now;
  return Number.isFinite(ms) ? Math.min(limit, Math.max(0, ms)) : limit;
}

/** A room starts: its partner, its clocks on this device's time, nothing of a room before. */
export function connectedPatch(
  frame: PartnerFoundFrame | RandomMatchedFrame,
  now: number,
): Partial<RandomState> {
  return {
    phase: 'connected',
    roomId: frame.roomId,
    partner: frame.partner,
    matched: frame.matched ?? null,
    startedAt: now,
    endsAt: frame.type === 'partner-found' ? now + remaining(frame.endsAt, now) : null,
    noOneFound: false,
    reconnecting: false,
    messages: [],
    partnerTyping: false,
    reveal: NO_REVEAL,
    actionResult: null,
  };
}

/** A room ended: its media gone; the room id and partner stay for Add Friend, Report and Block. */
export function postPatch(ended: RoomEnd): Partial<RandomState> {
  return {
    phase: 'post',
    ended,
    reconnecting: false,
    partnerTyping: false,
    localStream: null,
    remoteStream: null,
    mediaConnected: false,
    reveal: NO_REVEAL,
    isMuted: false,
  };
}

/** This device's own texts (the wire's are RANDOM_MSG). */
export const RANDOM_TEXT = {
  offline: 'You are offline. Random talk needs a connection.',
  connectionLost: 'You lost the connection, so this room ended.',
  reconnecting: 'Reconnecting… this chat is kept for a few seconds.',
  queueLost: 'You lost the connection, so the search stopped. Try again when you are back online.',
  restricted: 'Random talk is not available for your account right now.',
  noAnswer: 'No answer from the server. Try again.',
  mediaFailed: 'The call could not be connected, so this room ended. Try again.',
  actionOffline: 'You are offline. Try again when you are back online.',
} as const;

/** What the post screen says about how the room ended. */
export function endedText(reason: RoomEnd | null): string | null {
  switch (reason) {
    case 'left':
      return RANDOM_MSG.partnerLeft;
    case 'disconnected':
      return RANDOM_MSG.partnerDisconnected;
    case 'time_limit':
      return RANDOM_MSG.timeLimit;
    case 'other_device':
      return RANDOM_MSG.otherDevice;
    case 'restricted':
      return RANDOM_TEXT.restricted;
    case 'connection':
      return RANDOM_TEXT.connectionLost;
    case 'you_left':
    case null:
      return null;
  }
}

/** 'IIT Bombay', or the spec's fallbacks when the partner has none. */
export function partnerCollege(partner: RandomPartner | null): string {
  return partner?.college?.trim() || RANDOM_MSG.fallbackCollege;
}

export function partnerCourse(partner: RandomPartner | null): string {
  return partner?.course?.trim() || RANDOM_MSG.fallbackCourse;
}
