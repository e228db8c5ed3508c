import type {
  CallClientFrame,
  CallOfferFrame,
  CallType,
  Platform,
  SessionDescription,
  UserRef,
} from '@campus/protocol';
import type { CallSignalsApi, ConnectionStatus } from '@campus/sync';
import type { GetUserMedia } from './media';
import type { CallPeer, PeerFactory, PeerRtcConfig } from './peer';
import type { Ringtone } from './ringtone';

/** What the call controller takes from the app (signalling, REST, platform) and the device. */
export interface CallControllerDeps {
  signals: CallSignalsApi;
  connectionStatus(): ConnectionStatus;
  platform: Platform;
  loadRtcConfig(): Promise<PeerRtcConfig>;
  createPeer: PeerFactory;
  getUserMedia: GetUserMedia;
  ringtone: Ringtone;
  isHidden(): boolean;
  now(): number;
}

/** One call this device holds, beyond what the screens show. */
export interface Session {
  callId: string;
  role: 'caller' | 'callee';
  other: UserRef;
  callType: CallType;
  /** The callee's incoming offer. */
  offer?: SessionDescription;
  stream?: MediaStream;
  peer?: CallPeer;
  /** The server knows of the call from this device (its offer or answer went out). */
  announced: boolean;
  answered: boolean;
  needsResume: boolean;
  /** A caller's offer made while its connection was still connecting: sent once it is online. */
  heldOffer?: CallOfferFrame;
  iceTimer?: ReturnType<typeof setTimeout>;
  ringTimer?: ReturnType<typeof setTimeout>;
  /** The caller's offer goes again while the server has not answered it (CallController.armOfferRetry). */
  offerRetryTimer?: ReturnType<typeof setTimeout>;
}

export interface Outcome {
  error?: string | null;
  callRejected?: boolean;
  /** Sent before the call is torn down, when the server must hear of it. */
  frame?: CallClientFrame;
}

/**
 * What the server must hear when this device leaves a call: its end once the server knows the call from
 * here (offer or answer sent), a reject while it only rang here (the caller stops waiting), else nothing.
 */
export function leaveFrame(s: Session, reason: 'ended' | 'failed'): CallClientFrame | undefined {
  if (s.announced) return { type: 'call:end', callId: s.callId, to: s.other.id, reason };
  if (s.role === 'callee') return { type: 'call:reject', callId: s.callId, to: s.other.id };
  return undefined;
}
