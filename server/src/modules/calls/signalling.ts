import { randomUUID } from 'node:crypto';
import {
  CALL,
  CALL_MSG,
  type CallAnswerFrame,
  type CallAnsweredFrame,
  type CallEndedFrame,
  type CallEndReason,
  type CallLogStatus,
  type CallOfferFrame,
  type CallRejectFrame,
  type CallResumeFrame,
  type CallServerFrame,
  type UserRef,
  REALTIME_TIMING,
} from '@campus/protocol';
import type { AppDeps } from '../../deps';
import type { RateLimiter } from '../../lib/rate-limit';
import { Refusal } from '../../lib/refusal';
import type { Handover } from '../../realtime/handover';
import type { CallSessionFrame, FrameHandlers, ParticipationCheck, Session } from '../../realtime/registry';
import type { ReadTx } from '../../realtime/transaction';
import { userRefsOf, type UserRefs } from '../users';
import { secondsBetween, writeCallLog, type CallOutcome } from './log';
import { pairParams, pairSql } from './repo';
import { CALL_STATE, StoredCalls } from './handover';
import type { EndedCall } from './stored';
import { InProcessCallRegistry, type CallRegistry, type CallSide, type LiveCall } from './registry';

export interface CallTimings {
  /** An unanswered call ends as no_answer after this long. */
  ringTimeoutMs: number;
  /** A side's connection may be down this long before the call ends as lost. */
  reconnectGraceMs: number;
}

/** Offers per user and hour: a bot ringing everyone stops here. */
export const CALL_OFFER_RATE = { limit: CALL.offersPerHour, windowMs: 60 * 60_000 };

type EndFrame = Extract<CallSessionFrame, { type: 'call:end' }>;

/** At most this many ended calls are remembered (endedCalls), the oldest forgotten first. */
const ENDED_CALLS_MAX = 10_000;

function ended(callId: string, reason: CallEndReason, error?: string): CallEndedFrame {
  return error === undefined
    ? { type: 'call:end', callId, reason }
    : { type: 'call:end', callId, reason, error };
}

/**
 * Whether the caller may place this call: 'ring' (they share a chat, a group or a friendship, and neither
 * blocked the other), 'hidden' (the callee blocked the caller: it must look to the caller like a callee with
 * no live device), or refused with the text to show.
 */
type Placement = 'ring' | 'hidden' | { refused: string };

/** One statement of point lookups. */
async function placement(tx: ReadTx, callerId: string, calleeId: string): Promise<Placement> {
  const pair = await tx.first(pairSql, ...pairParams(callerId, calleeId));
  if (!pair) return { refused: CALL_MSG.notAllowed };
  if (pair.caller_blocked) return { refused: CALL_MSG.youBlocked };
  // A stranger who blocked the caller is refused like any stranger: the answer says nothing of the block.
  if (!pair.shares) return { refused: CALL_MSG.notAllowed };
  return pair.callee_blocked ? 'hidden' : 'ring';
}

/**
 * One-to-one call signalling (issue 12) over `/ws`: the server places a call only between contacts (checked
 * in the database), rings every live device of the callee, lets the first answer take the call, relays the
 * descriptions between the two connections that hold it, ends it on a hang-up, a reject, the ring timeout or
 * a connection lost past its grace period, and logs every call it placed once it ends.
 *
 * What each device receives:
 * - the caller's calling connection: `call:ringing` when it rang somewhere, then `call:answer`,
 *   `call:reject` or `call:end` (refused, busy, no_answer, ended, failed, lost);
 * - every live device of the callee: the incoming `call:offer`, then `call:end` with answered_elsewhere,
 *   rejected_elsewhere, cancelled, no_answer or lost. These go to all the callee's devices, the one that
 *   answered or rejected included: a device ignores an end of the call it holds (it answered it) or no
 *   longer shows (it rejected it);
 * - the callee's answering connection, during the call: `call:end` ended, failed or lost;
 * - a callee's device answering a call that is over (it missed the cancel): `call:end` unknown;
 * - a connection that takes a side over with `call:resume`: `call:resumed` (or `call:end` unknown), and for
 *   the caller of an answered call the `call:answer` again, which a device that applied it ignores.
 * A frame naming a call its sender is not a party of, or another `to` than the other party, is dropped
 * without an answer. The state is this process's (`CallRegistry`); its timers are cleared on every path.
 * With REDIS_URL the node coordinating the calls also keeps them in Redis (handover.ts), so the next one
 * carries them on (`lead`) with their ring and grace deadlines.
 */
export class CallSignalling {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly offers: RateLimiter;
  private readonly logging = new Set<Promise<void>>();
  private readonly refs: UserRefs;
  private readonly stored: StoredCalls;
  private closing = false;
  /** Counts the terms this node stopped coordinating: an offer read across one is dropped. */
  private era = 0;
  /**
   * Offers still being read (placement, presence), by call id, and whether their caller hung up
   * meanwhile: a hang-up sent right after the offer must cancel it, not find no call and be dropped while
   * the call goes on to ring.
   */
  private readonly placing = new Map<string, { callerId: string; calleeId: string; hungUp: boolean }>();
  /**
   * Calls ended lately, by id: their caller and the last word the caller was sent (or would have been, with
   * a connection up). A caller's device that heard nothing back sends its offer again (`retry`), and the
   * ending may have gone to a connection that had dropped meanwhile: without this the retry found no call
   * and rang the callee again. The callee too, whose late answer is told the call is over (answerEnded).
   * Kept as long as a device may still be retrying, in Redis too (handover.ts).
   */
  private readonly endedCalls = new Map<string, EndedCall>();

  readonly frames: FrameHandlers<CallSessionFrame> = {
    'call:offer': (session, frame) => this.offer(session, frame),
    'call:answer': (session, frame) => this.answer(session, frame),
    'call:reject': (session, frame) => this.reject(session, frame),
    'call:end': (session, frame) => this.end(session, frame),
    'call:resume': (session, frame) => this.resume(session, frame),
  };

  /** The hooks another node forwards to the coordinator (coordinated.ts), by name. */
  readonly events = {
    separated: (blockerId: string, blockedId: string) => this.separated(blockerId, blockedId),
  };

  /** What the coordinator keeps in Redis, and the frames a node sends again after a takeover (all idempotent). */
  readonly stateKeys = [CALL_STATE];
  readonly replayable = ['call:answer', 'call:reject', 'call:end', 'call:resume'];

  constructor(
    private readonly deps: AppDeps,
    private readonly participation: ParticipationCheck,
    private readonly timings: CallTimings,
    private readonly calls: CallRegistry = new InProcessCallRegistry(),
  ) {
    // Per user across the nodes (deps.rates); `hitNow` decides before anything yields, as before.
    this.offers = deps.rates.limiter('calls.offer', CALL_OFFER_RATE);
    this.refs = userRefsOf(deps);
    this.stored = new StoredCalls(deps.log);
  }

  // ---- frames

  private async offer(session: Session, frame: CallOfferFrame): Promise<void> {
    const { callId, to: calleeId, callType, signal } = frame;
    const callerId = session.userId;
    const refuse = (error: string) => session.send(ended(callId, 'refused', error));
    const era = this.era;
    if (this.closing) return;
    if (frame.retry && this.answerAgain(session, callId)) return;
    if (this.offers.hitNow(callerId) > 0) return refuse(CALL_MSG.rateLimited);
    if (calleeId === callerId) return refuse(CALL_MSG.notAllowed);
    const early = this.inUse(callerId, callId);
    if (early) return refuse(early);
    if (this.placing.has(callId)) return refuse(CALL_MSG.failed);
    const placing = { callerId, calleeId, hungUp: false };
    this.placing.set(callId, placing);
    let checked: Awaited<ReturnType<CallSignalling['check']>>;
    try {
      checked = await this.check(callerId, calleeId);
    } finally {
      if (this.placing.get(callId) === placing) this.placing.delete(callId);
    }
    if (typeof checked === 'string') return refuse(checked);
    const { verdict, from, online } = checked;
    // Awaited: the world may have moved (the socket closed, another offer of this user went first, or
    // this node stopped coordinating).
    if (this.closing || era !== this.era || session.closed || !from) return;
    const late = this.inUse(callerId, callId);
    if (late) return refuse(late);

    const hidden = verdict === 'hidden';
    const startedAt = this.deps.now();
    // A call that never rang anywhere, logged as it ended.
    const unplaced = (status: 'cancelled' | 'missed') =>
      this.log({
        logId: randomUUID(),
        callerId,
        calleeId,
        callType,
        startedAt,
        status,
        duration: 0,
        calleeHidden: hidden,
      });
    // Hung up while it was being checked: nothing rang yet.
    if (placing.hungUp) return unplaced('cancelled');
    // A callee who blocked the caller is answered for exactly as any other: busy when in a call, ringing
    // when online (their presence is hidden from the caller anyway), then no answer.
    if (this.calls.callOf(calleeId)) {
      session.send(ended(callId, 'busy', CALL_MSG.busy));
      return unplaced('missed');
    }
    const rang = !hidden && online;
    const call: LiveCall = {
      id: callId,
      logId: randomUUID(),
      callerId,
      calleeId,
      callType,
      startedAt,
      calleeHidden: hidden,
      rang,
      state: 'ringing',
      ringEndsAt: startedAt + this.timings.ringTimeoutMs,
      caller: session,
      callee: undefined,
      away: {},
    };
    if (!this.calls.add(call)) return refuse(CALL_MSG.alreadyInCall);
    this.stored.saved(call);
    this.timer(`ring:${callId}`, this.timings.ringTimeoutMs, () => this.ringTimeout(callId));
    // Rung once the call is stored (with REDIS_URL): a crash of this node in between must not ring a
    // callee for a call the next coordinator never heard of. Hung up meanwhile: nobody is rung.
    this.onceStored(call, () => {
      if (rang)
        this.deps.realtime.sendToUsers([calleeId], { type: 'call:offer', callId, from, callType, signal });
      session.send({ type: 'call:placed', callId });
      if (online) session.send({ type: 'call:ringing', callId });
    });
  }

  /**
   * An offer sent again (`retry`) by a caller that heard nothing back: the first may have died with a
   * crashed coordinator. If it arrived, the caller hears `call:placed` again (once the call is stored, as
   * after the first), and the callee's answer if one came (as `call:resume` gives it again); nothing rings
   * again. If its checks are still under way, they answer. False when this caller placed no call by this id:
   * then the first was lost, and this one is placed.
   */
  private answerAgain(session: Session, callId: string): boolean {
    const placing = this.placing.get(callId);
    if (placing) return placing.callerId === session.userId;
    const gone = this.recentlyEnded(callId);
    if (gone) {
      if (gone.callerId !== session.userId) return false;
      session.send({ type: 'call:placed', callId });
      session.send(gone.told);
      return true;
    }
    const call = this.calls.get(callId);
    if (!call || call.callerId !== session.userId) return false;
    this.onceStored(call, () => {
      session.send({ type: 'call:placed', callId });
      if (call.answered) session.send(call.answered);
    });
    return true;
  }

  /**
   * What placing a call reads: whether the caller may call the callee (a refusal's message if not), the
   * caller's card, and whether the callee is online on any node of the deployment (this one coordinates the
   * calls of all: coordinated.ts).
   */
  private async check(
    callerId: string,
    calleeId: string,
  ): Promise<string | { verdict: 'ring' | 'hidden'; from: UserRef | undefined; online: boolean }> {
    let decided: { verdict: Placement; from: UserRef | undefined };
    try {
      decided = await this.deps.transactor.read(async (tx) => {
        // Placing a call takes part (the access policy); answering, rejecting and hanging up are open.
        await this.participation(tx, callerId);
        return { verdict: await placement(tx, callerId, calleeId), from: await this.refs.get(tx, callerId) };
      });
    } catch (err) {
      if (err instanceof Refusal) return err.message;
      throw err;
    }
    const { verdict, from } = decided;
    if (typeof verdict === 'object') return verdict.refused;
    return { verdict, from, online: await this.deps.realtime.isOnlineAnywhere(calleeId) };
  }

  /** The first answer from any of the callee's devices takes the call; a later one is told it is over. */
  private answer(session: Session, frame: CallAnswerFrame): void {
    const call = this.calls.get(frame.callId);
    if (!call) return this.answerEnded(session, frame);
    if (call.calleeHidden || session.userId !== call.calleeId || frame.to !== call.callerId) return;
    if (call.state !== 'ringing') {
      if (call.callee !== session) session.send(ended(call.id, 'unknown'));
      return;
    }
    if (!this.calls.answer(call.id, session, this.deps.now())) return session.send(ended(call.id, 'unknown'));
    this.clearTimer(`ring:${call.id}`);
    const answered: CallAnsweredFrame = {
      type: 'call:answer',
      callId: call.id,
      from: call.calleeId,
      signal: frame.signal,
    };
    call.answered = answered;
    this.stored.saved(call);
    // Told once the answer is stored (with REDIS_URL): told before, a crash of this node in between left the
    // two talking in a call the next coordinator still had ringing, and ended as unanswered at its timeout.
    this.onceStored(call, () => {
      // A caller whose connection is down gets it with its `call:resume`.
      call.caller?.send(answered);
      this.toCallee(call, 'answered_elsewhere');
    });
  }

  /**
   * An answer to a call that ended lately: a callee's device whose connection was down when the caller
   * cancelled missed its `call:end`, and once Accept is tapped it opens camera and microphone for a call
   * that is gone. It is told the call is over, as a late answer to a live call is. The record outlasts the
   * device's own ring timeout (ringTimeoutMs + reconnectGraceMs from the offer), so Accept is always in time.
   * Only the callee the call rang hears it: anyone else learns nothing of a call id, as for a live call.
   */
  private answerEnded(session: Session, frame: CallAnswerFrame): void {
    const gone = this.recentlyEnded(frame.callId);
    if (!gone || gone.calleeId !== session.userId || frame.to !== gone.callerId) return;
    session.send(ended(frame.callId, 'unknown'));
  }

  /**
   * Runs `fn` once `call` as it stands is in Redis (stored.afterWritten), unless this node ended it
   * meanwhile (its sides heard how). A node that stepped down meanwhile still runs it: what it wrote went to
   * Redis with the call, and the next coordinator carries the call on.
   */
  private onceStored(call: LiveCall, fn: () => void): void {
    const era = this.era;
    this.stored.afterWritten(() => {
      if (era === this.era && this.calls.get(call.id) !== call) return;
      fn();
    });
  }

  private reject(session: Session, frame: CallRejectFrame): void {
    const call = this.calls.get(frame.callId);
    if (!call || call.calleeHidden || session.userId !== call.calleeId || frame.to !== call.callerId) return;
    if (call.state === 'ringing') this.rejected(call);
  }

  private end(session: Session, frame: EndFrame): void {
    const call = this.calls.get(frame.callId);
    const placing = this.placing.get(frame.callId);
    if (!call && placing?.callerId === session.userId && placing.calleeId === frame.to) {
      placing.hungUp = true;
      return;
    }
    const side = call && this.sideOf(call, session.userId);
    if (!call || !side || frame.to !== (side === 'caller' ? call.calleeId : call.callerId)) return;
    // A side whose connection is down may hang up from its new one without resuming first.
    const holder = call[side];
    if (call.state === 'ringing') {
      // Hanging up an incoming call, from any of the callee's devices, is refusing it.
      if (side === 'callee') return this.rejected(call);
      if (holder && holder !== session) return;
      if (!this.finish(call)) return;
      if (!call.calleeHidden) this.toCallee(call, 'cancelled');
      return this.log(this.outcome(call, call.rang ? 'missed' : 'cancelled', 0));
    }
    if (holder && holder !== session) return;
    if (!this.finish(call)) return;
    const failed = frame.reason === 'failed';
    const other = side === 'caller' ? call.callee : call.caller;
    other?.send(failed ? ended(call.id, 'failed', CALL_MSG.failed) : ended(call.id, 'ended', CALL_MSG.ended));
    const duration = secondsBetween(call.answeredAt, this.deps.now());
    this.log(this.outcome(call, failed ? 'failed' : 'completed', duration));
  }

  /** A new connection of a party takes its side of the call over (after a reconnect, within the grace). */
  private resume(session: Session, frame: CallResumeFrame): void {
    const call = this.calls.get(frame.callId);
    const side = call && this.sideOf(call, session.userId);
    // A callee's device holds a call only once it answered it.
    if (!call || !side || (side === 'callee' && call.state !== 'active'))
      return session.send(ended(frame.callId, 'unknown'));
    const moved = call[side] !== session || call.away[side];
    call[side] = session;
    delete call.away[side];
    this.clearTimer(`grace:${call.id}:${side}`);
    if (moved) this.stored.saved(call);
    session.send({ type: 'call:resumed', callId: call.id });
    // The answer may have gone to the old connection after it died unseen (a network drop is noticed only
    // by the heartbeat): the caller gets it again, and a device that already applied it ignores it.
    if (side === 'caller' && call.answered) session.send(call.answered);
  }

  // ---- the engine's hooks

  /**
   * A connection closed: if it held a side of a call, that side has the grace period to come back with
   * `call:resume`; otherwise the call ends as lost. A callee's device that only rang changes nothing.
   */
  closed(session: Session): void {
    const call = this.calls.callOf(session.userId);
    if (!call) return;
    const side: CallSide | undefined =
      call.caller === session ? 'caller' : call.callee === session ? 'callee' : undefined;
    if (!side) return;
    call[side] = undefined;
    const droppedAt = this.deps.now();
    call.away[side] = { since: droppedAt, until: droppedAt + this.timings.reconnectGraceMs };
    this.stored.saved(call);
    this.timer(`grace:${call.id}:${side}`, this.timings.reconnectGraceMs, () =>
      this.lost(call.id, side, droppedAt),
    );
  }

  /**
   * A block between the two committed (`blockerId` blocked `blockedId`): a call between them, ringing or
   * live, ends at once. The blocked side hears what it would from a hang-up or an unanswered call, so the
   * ending says nothing of the block.
   */
  separated(blockerId: string, blockedId: string): void {
    const call = this.calls.callOf(blockerId) ?? this.calls.callOf(blockedId);
    if (!call) return;
    const pair = new Set([call.callerId, call.calleeId]);
    if (!pair.has(blockerId) || !pair.has(blockedId)) return;
    if (call.state === 'ringing' && call.callerId === blockedId) {
      // The blocker's devices stop ringing; to the caller the call rings on unanswered until its timeout,
      // as any unanswered call does (ending it now would tell them of the block).
      const wasHidden = call.calleeHidden;
      this.calls.hide(call.id);
      this.stored.saved(call);
      if (!wasHidden) this.toCallee(call, 'rejected_elsewhere');
      return;
    }
    if (!this.finish(call)) return;
    if (call.state === 'active') {
      call.caller?.send(ended(call.id, 'ended', CALL_MSG.ended));
      call.callee?.send(ended(call.id, 'ended', CALL_MSG.ended));
      const duration = secondsBetween(call.answeredAt, this.deps.now());
      return this.log(this.outcome(call, 'completed', duration));
    }
    // The blocker was calling: as their own cancel.
    call.caller?.send(ended(call.id, 'ended', CALL_MSG.ended));
    if (!call.calleeHidden) this.toCallee(call, 'cancelled');
    this.log(this.outcome(call, call.rang ? 'missed' : 'cancelled', 0));
  }

  /**
   * The server is stopping: no timer outlives it, no call is placed any more, and logs being written land.
   * What it still holds (a single node: every call) ends and is logged; a coordinator that handed over
   * holds nothing by now (its calls go on under the next one).
   */
  async close(): Promise<void> {
    this.closing = true;
    this.clearTimers();
    // Calls cut by the stop still belong in both histories: an answered one for as long as it lasted.
    const now = this.deps.now();
    for (const call of this.calls.all()) {
      if (!this.calls.finish(call.id)) continue;
      const answered = call.state === 'active';
      const status = answered ? 'completed' : call.rang ? 'missed' : 'cancelled';
      this.log(this.outcome(call, status, answered ? secondsBetween(call.answeredAt, now) : 0));
    }
    this.calls.clear();
    await this.settled();
  }

  /** Resolves once the logs being written are in (or failed). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.logging]);
  }

  /**
   * This node stops coordinating calls while other nodes go on (issue 14: its lease lapsed, or it hands
   * over as it stops): it forgets them without ending any; they are in Redis, and the next coordinator
   * carries them on.
   */
  stepDown(): void {
    this.era++;
    this.placing.clear();
    this.stored.end();
    this.clearTimers();
    this.calls.clear();
  }

  /**
   * This node coordinates the calls from now on (REDIS_URL): it writes the logs the previous coordinator
   * did not get to, and takes its calls over with their connections and timers. A call whose deadline
   * passed meanwhile (its ring, a side's grace) ends at once, logged as it would have been.
   */
  async lead(term: Handover): Promise<void> {
    this.stored.begin(term);
    const now = this.deps.now();
    const { calls, logs, ended } = await this.stored.load(term, now, this.timings.reconnectGraceMs);
    if (!this.stored.current(term) || this.closing) return;
    for (const { callId, ...gone } of ended.sort((a, b) => a.until - b.until))
      this.endedCalls.set(callId, gone);
    for (const outcome of logs) this.log(outcome, true);
    for (const { call, moved } of calls) {
      if (!this.calls.add(call)) {
        this.deps.log.warn({ callId: call.id }, 'calls: a stored call clashes with another and was dropped');
        this.stored.forgot(call);
        continue;
      }
      if (moved) this.stored.saved(call);
      const after = (at: number) => Math.max(0, at - this.deps.now());
      if (call.state === 'ringing')
        this.timer(`ring:${call.id}`, after(call.ringEndsAt), () => this.ringTimeout(call.id));
      for (const side of ['caller', 'callee'] as const) {
        const away = call.away[side];
        if (away)
          this.timer(`grace:${call.id}:${side}`, after(away.until), () =>
            this.lost(call.id, side, away.since),
          );
      }
    }
  }

  // ---- endings

  private ringTimeout(callId: string): void {
    const call = this.calls.get(callId);
    const toCaller = ended(callId, 'no_answer', CALL_MSG.noAnswer);
    if (!call || call.state !== 'ringing' || !this.finish(call, toCaller)) return;
    call.caller?.send(toCaller);
    if (!call.calleeHidden) this.toCallee(call, 'no_answer');
    this.log(this.outcome(call, 'no_answer', 0));
  }

  private rejected(call: LiveCall): void {
    const toCaller: CallServerFrame = { type: 'call:reject', callId: call.id, from: call.calleeId };
    if (!this.finish(call, toCaller)) return;
    call.caller?.send(toCaller);
    this.toCallee(call, 'rejected_elsewhere');
    this.log(this.outcome(call, 'rejected', 0));
  }

  private lost(callId: string, side: CallSide, droppedAt: number): void {
    const call = this.calls.get(callId);
    if (!call || call[side] || !this.finish(call)) return;
    if (call.state === 'active') {
      (side === 'caller' ? call.callee : call.caller)?.send(ended(callId, 'lost', CALL_MSG.unavailable));
      return this.log(this.outcome(call, 'completed', secondsBetween(call.answeredAt, droppedAt)));
    }
    // The caller's connection, while it rang.
    if (!call.calleeHidden) this.toCallee(call, 'lost');
    this.log(this.outcome(call, 'failed', 0));
  }

  // ---- helpers

  /** Why `callerId` may not place a call with this id now, if so. */
  private inUse(callerId: string, callId: string): string | undefined {
    if (this.calls.callOf(callerId)) return CALL_MSG.alreadyInCall;
    if (this.calls.get(callId)) return CALL_MSG.failed;
    // An ended call's id is not placed again (its caller's retry was answered before this).
    if (this.recentlyEnded(callId)) return CALL_MSG.failed;
    return undefined;
  }

  /** The side `userId` is on; none for a hidden call's callee, whom the call never reached. */
  private sideOf(call: LiveCall, userId: string): CallSide | undefined {
    if (userId === call.callerId) return 'caller';
    if (userId === call.calleeId && !call.calleeHidden) return 'callee';
    return undefined;
  }

  /** To every live device of the callee. */
  private toCallee(call: LiveCall, reason: CallEndReason): void {
    this.deps.realtime.sendToUsers([call.calleeId], ended(call.id, reason));
  }

  /**
   * Ends the call once: false when another path ended it first. Clears its timers, and remembers `toCaller`
   * (what the caller is told of the ending) for a retry of the offer.
   */
  private finish(
    call: LiveCall,
    toCaller: CallServerFrame = ended(call.id, 'ended', CALL_MSG.ended),
  ): boolean {
    if (!this.calls.finish(call.id)) return false;
    this.remember(call, toCaller);
    this.stored.forgot(call);
    for (const key of [`ring:${call.id}`, `grace:${call.id}:caller`, `grace:${call.id}:callee`])
      this.clearTimer(key);
    return true;
  }

  /** What an ended call's caller was told, for a retry of its offer, and its callee (endedCalls). */
  private remember(call: LiveCall, told: CallServerFrame): void {
    const now = this.deps.now();
    const keep =
      this.timings.ringTimeoutMs + this.timings.reconnectGraceMs + REALTIME_TIMING.unansweredRetryMs;
    const gone: EndedCall = { callerId: call.callerId, told, until: now + keep };
    // A hidden call never reached its callee: their answer to it is dropped, as while it rang.
    if (!call.calleeHidden) gone.calleeId = call.calleeId;
    this.endedCalls.delete(call.id);
    this.endedCalls.set(call.id, gone);
    this.stored.ended(call.id, gone);
    this.forgetEnded(now);
  }

  /** A call with this id that ended lately (a retry of its offer may still come), if any. */
  private recentlyEnded(callId: string): EndedCall | undefined {
    const gone = this.endedCalls.get(callId);
    return gone && gone.until > this.deps.now() ? gone : undefined;
  }

  /** Oldest first (insertion order): the expired, and any beyond the cap. */
  private forgetEnded(now: number): void {
    for (const [id, gone] of this.endedCalls) {
      if (gone.until > now && this.endedCalls.size <= ENDED_CALLS_MAX) break;
      this.endedCalls.delete(id);
      this.stored.expired(id);
    }
  }

  private outcome(call: LiveCall, status: CallLogStatus, duration: number): CallOutcome {
    const { logId, callerId, calleeId, callType, startedAt, calleeHidden } = call;
    return { logId, callerId, calleeId, callType, startedAt, status, duration, calleeHidden };
  }

  /**
   * Writes the log after the fact; a failure is logged, never thrown at a socket. Kept in Redis until it is
   * written (`stored`: it is there already, handed over).
   */
  private log(outcome: CallOutcome, stored = false): void {
    const written = this.stored.logging(outcome, stored);
    const writing = this.deps.transactor
      .commit((tx) => writeCallLog(tx, this.refs, outcome))
      .then(written)
      .catch((err: unknown) => this.deps.log.error({ err }, 'call log failed'));
    this.logging.add(writing);
    void writing.finally(() => this.logging.delete(writing));
  }

  private timer(key: string, ms: number, fn: () => void): void {
    this.clearTimer(key);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      try {
        fn();
      } catch (err) {
        this.deps.log.error({ err }, 'call timer failed');
      }
    }, ms);
    timer.unref();
    this.timers.set(key, timer);
  }

  private clearTimers(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private clearTimer(key: string): void {
    const timer = this.timers.get(key);
    if (!timer) return;
    clearTimeout(timer);
    this.timers.delete(key);
  }
}
