import type { CallAnsweredFrame, CallType } from '@campus/protocol';
import type { Session } from '../../realtime/registry';

export type CallSide = 'caller' | 'callee';

/** A side whose connection went down: since when, and until when it may come back (ms, the server's clock). */
export interface Away {
  readonly since: number;
  readonly until: number;
}

/** A call the server placed and that has not ended yet. */
export interface LiveCall {
  readonly id: string;
  /** Its log row's id: whichever coordinator logs the call, it is logged once (log.ts). */
  readonly logId: string;
  readonly callerId: string;
  readonly calleeId: string;
  readonly callType: CallType;
  /** When it was placed (ms, the server's clock). */
  readonly startedAt: number;
  /**
   * The callee had blocked the caller: nothing of the call reaches them and its log is the caller's only.
   * To the caller it looks like a callee with no live device.
   */
  calleeHidden: boolean;
  /** The offer reached at least one of the callee's devices (it rang somewhere). */
  readonly rang: boolean;
  state: 'ringing' | 'active';
  /** While it rings: when the ring timeout ends it (ms). */
  readonly ringEndsAt: number;
  /** When the callee answered (ms). */
  answeredAt?: number;
  /**
   * The connection holding each side: the caller's calling connection; the callee's answering one (none
   * while it only rings). Undefined while that side's connection is down, for the grace period.
   */
  caller: Session | undefined;
  callee: Session | undefined;
  /** The sides in their grace period (their connection is undefined above). */
  away: Partial<Record<CallSide, Away>>;
  /**
   * The callee's answer as relayed to the caller: sent again after the caller's `call:resume`, since the
   * connection it went to may have died before it arrived.
   */
  answered?: CallAnsweredFrame;
}

/**
 * Who is in which call. Each method is one atomic step (in-process: synchronous, so no frame can come in
 * between its check and its write); a registry shared by several nodes (issue 14, Redis) would make them
 * compare-and-set operations and name connections by node and id instead of holding `Session`s. O(1) each.
 *
 * A user takes part in at most one call: as its caller, as the callee it rings for (only when it rang
 * somewhere and the callee is not hidden), or as the callee who answered it.
 */
export interface CallRegistry {
  /** Adds a ringing call; false when its id is taken or a party is already in a call. */
  add(call: LiveCall): boolean;
  get(callId: string): LiveCall | undefined;
  /** The call `userId` takes part in, if any. */
  callOf(userId: string): LiveCall | undefined;
  /**
   * Ringing → active with `session` holding the callee's side: once (the first answer takes the call), and
   * not when the callee is in another call. The call, or undefined when it did not happen.
   */
  answer(callId: string, session: Session, at: number): LiveCall | undefined;
  /** Removes the call: returns it to the first caller only, so each call ends (and is logged) once. */
  finish(callId: string): LiveCall | undefined;
  /**
   * A ringing call's callee blocked the caller: from now on the call is hidden from them (it no longer
   * engages the callee, who may take other calls) and rings out on the caller's side alone.
   */
  hide(callId: string): LiveCall | undefined;
  /** Every live call (the server is stopping and logs them). */
  all(): LiveCall[];
  /** Forgets every call (the server is stopping). */
  clear(): void;
}

/** The registry of this process: two maps. */
export class InProcessCallRegistry implements CallRegistry {
  private readonly byId = new Map<string, LiveCall>();
  private readonly byUser = new Map<string, LiveCall>();

  add(call: LiveCall): boolean {
    if (this.byId.has(call.id) || this.byUser.has(call.callerId)) return false;
    const engagesCallee = call.rang && !call.calleeHidden;
    if (engagesCallee && this.byUser.has(call.calleeId)) return false;
    this.byId.set(call.id, call);
    this.byUser.set(call.callerId, call);
    if (engagesCallee) this.byUser.set(call.calleeId, call);
    return true;
  }

  get(callId: string): LiveCall | undefined {
    return this.byId.get(callId);
  }

  callOf(userId: string): LiveCall | undefined {
    return this.byUser.get(userId);
  }

  answer(callId: string, session: Session, at: number): LiveCall | undefined {
    const call = this.byId.get(callId);
    if (!call || call.state !== 'ringing') return undefined;
    const other = this.byUser.get(call.calleeId);
    if (other && other !== call) return undefined;
    call.state = 'active';
    call.callee = session;
    call.answeredAt = at;
    this.byUser.set(call.calleeId, call);
    return call;
  }

  finish(callId: string): LiveCall | undefined {
    const call = this.byId.get(callId);
    if (!call) return undefined;
    this.byId.delete(callId);
    if (this.byUser.get(call.callerId) === call) this.byUser.delete(call.callerId);
    if (this.byUser.get(call.calleeId) === call) this.byUser.delete(call.calleeId);
    return call;
  }

  hide(callId: string): LiveCall | undefined {
    const call = this.byId.get(callId);
    if (!call || call.state !== 'ringing') return undefined;
    call.calleeHidden = true;
    if (this.byUser.get(call.calleeId) === call) this.byUser.delete(call.calleeId);
    return call;
  }

  all(): LiveCall[] {
    return [...this.byId.values()];
  }

  clear(): void {
    this.byId.clear();
    this.byUser.clear();
  }
}
