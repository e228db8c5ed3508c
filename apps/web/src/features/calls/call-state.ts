import { CALL_MSG, type CallEndReason, type CallType, type UserRef } from '@campus/protocol';

/**
 * idle: no call. outgoing: this device is calling (the overlay). incoming: a call rings here (the prompt).
 * active: answered, the call screen. ended: over with something to say (an error, 'Call Rejected'),
 * shown in the overlay until dismissed.
 */
export type CallPhase = 'idle' | 'outgoing' | 'incoming' | 'active' | 'ended';

/** The spec's call state (talk-chat-random, data), plus the phase and when the media connected. */
export interface CallState {
  phase: CallPhase;
  incoming: boolean;
  /** Who calls this device (set for calls it received). */
  caller: UserRef | null;
  callType: CallType;
  /** The spec's callLogId: the call's id on the wire (the caller generates it). */
  callId: string | null;
  outgoing: boolean;
  /** Who this device calls (set for calls it placed). */
  callee: UserRef | null;
  inCall: boolean;
  callAccepted: boolean;
  callRejected: boolean;
  error: string | null;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  isMuted: boolean;
  isCameraOff: boolean;
  /** When the peer connection came up: the call timer counts from here. */
  connectedAt: number | null;
}

export const IDLE: CallState = {
  phase: 'idle',
  incoming: false,
  caller: null,
  callType: 'audio',
  callId: null,
  outgoing: false,
  callee: null,
  inCall: false,
  callAccepted: false,
  callRejected: false,
  error: null,
  localStream: null,
  remoteStream: null,
  isMuted: false,
  isCameraOff: false,
  connectedAt: null,
};

/** The other person of the call, whichever side placed it. */
export const otherParty = (state: CallState): UserRef | null => state.caller ?? state.callee;

export const personName = (user: Pick<UserRef, 'firstName' | 'lastName'>): string =>
  `${user.firstName} ${user.lastName}`.trim() || 'Unknown user';

/** mm:ss, minutes growing past 59 (a long call reads 75:02). */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const mm = String(Math.floor(whole / 60)).padStart(2, '0');
  const ss = String(whole % 60).padStart(2, '0');
  return `${mm}:${ss}`;
}

/**
 * What the overlay says when the server ends a call this device placed or holds; null when nothing needs
 * saying (the other side hung up, another device took it).
 */
export function endText(reason: CallEndReason, error: string | undefined): string | null {
  switch (reason) {
    case 'ended':
    case 'cancelled':
    case 'answered_elsewhere':
    case 'rejected_elsewhere':
      return null;
    case 'no_answer':
      return CALL_MSG.noAnswer;
    case 'busy':
      return error ?? CALL_MSG.busy;
    case 'lost':
      return CALL_MSG.unavailable;
    case 'failed':
      return error ?? CALL_MSG.failed;
    case 'refused':
      return error ?? CALL_MSG.failed;
    case 'unknown':
      return error ?? CALL_MSG.unavailable;
  }
}
