import {
  CALL,
  CALL_MSG,
  type CallClientFrame,
  type CallEndedFrame,
  type CallOfferFrame,
  type CallServerFrame,
  type CallType,
  type IncomingCallFrame,
  type MessageErrorFrame,
  REALTIME_TIMING,
  type UserRef,
} from '@campus/protocol';
import type { ConnectionStatus } from '@campus/sync';
import { leaveFrame, type CallControllerDeps, type Outcome, type Session } from './call-session';
import { endText, IDLE, personName, type CallState } from './call-state';
import { MediaNoLongerWanted, openLocalMedia, stopStream } from './media';
import type { CallPeer, PeerEvents, PeerRtcConfig } from './peer';

/**
 * The global call layer's logic, apart from React: one call at a time, its media, its peer and its
 * signalling. Every way out goes through `finish`, which stops the ringtone, the peer and every local track.
 */
export class CallController {
  private state: CallState = IDLE;
  private session: Session | null = null;
  private status: ConnectionStatus;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: CallControllerDeps) {
    this.status = deps.connectionStatus();
  }

  getState = (): CallState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  async startCall(user: UserRef, callType: CallType): Promise<void> {
    if (this.session) return;
    const s: Session = {
      callId: crypto.randomUUID(),
      role: 'caller',
      other: user,
      callType,
      announced: false,
      answered: false,
      needsResume: false,
    };
    this.session = s;
    this.set({ ...IDLE, phase: 'outgoing', outgoing: true, callee: user, callType, callId: s.callId });
    // Only an offline device is told so at once. One still connecting (the app just opened, a reconnect
    // under way) gets its media and peer ready meanwhile, and the offer goes out once it is online
    // (connectionChanged).
    if (this.deps.connectionStatus() === 'offline') return this.finish(s, { error: CALL_MSG.notConnected });
    // The server ends an unanswered call; should its call:end never come (a refused frame, a lost socket),
    // the caller stops waiting too.
    s.ringTimer = setTimeout(
      () => this.finish(s, { error: CALL_MSG.noAnswer, frame: leaveFrame(s, 'ended') }),
      CALL.ringTimeoutMs + CALL.reconnectGraceMs,
    );
    if (!(await this.openMedia(s))) return;
    const rtc = await this.rtcConfig(s);
    if (rtc) await this.openPeer(s, { initiator: true, rtc });
  }

  /**
   * A call frame this device sent was refused before it reached the call logic (the engine's frame budget,
   * a bad frame, a server fault): a call still being placed stops with the reason, rather than ringing on.
   */
  refused = (frame: MessageErrorFrame): void => {
    const s = this.session;
    if (!s || s.role !== 'caller' || s.answered || !frame.context.startsWith('call:')) return;
    this.finish(s, { error: frame.error });
  };

  async accept(): Promise<void> {
    const s = this.session;
    if (!s || s.role !== 'callee' || s.answered || !s.offer) return;
    s.answered = true;
    this.deps.ringtone.stop();
    clearTimeout(s.ringTimer);
    // Accepted here: the prompt waits for the media (the browser may be asking for permission).
    this.set({ callAccepted: true });
    if (!(await this.openMedia(s))) return;
    const rtc = await this.rtcConfig(s);
    if (!rtc) return;
    this.set({ phase: 'active', incoming: false, inCall: true, callAccepted: true });
    const peer = await this.openPeer(s, { initiator: false, rtc });
    peer?.signal(s.offer);
  }

  /** Refuses a call ringing here, also while its media is still being opened after Accept. */
  reject(): void {
    const s = this.session;
    if (!s || s.role !== 'callee' || s.announced) return;
    this.finish(s, { frame: { type: 'call:reject', callId: s.callId, to: s.other.id } });
  }

  /** Hangs up, cancels a call still ringing, rejects one ringing here, or closes what the overlay says. */
  end(): void {
    const s = this.session;
    if (s) this.finish(s, { frame: leaveFrame(s, 'ended') });
    else if (this.state.phase === 'ended') this.set(IDLE);
  }

  toggleMute(): void {
    const isMuted = !this.state.isMuted;
    this.state.localStream?.getAudioTracks().forEach((track) => (track.enabled = !isMuted));
    this.set({ isMuted });
  }

  /** The camera toggle works only for video calls. */
  toggleCamera(): void {
    if (this.state.callType !== 'video') return;
    const isCameraOff = !this.state.isCameraOff;
    this.state.localStream?.getVideoTracks().forEach((track) => (track.enabled = !isCameraOff));
    this.set({ isCameraOff });
  }

  /** Every call frame the server sends this device. */
  receive = (frame: CallServerFrame): void => {
    if (frame.type === 'call:offer') return this.ring(frame);
    const s = this.session;
    if (!s || frame.callId !== s.callId) return;
    // Any answer from the server says the offer arrived.
    clearTimeout(s.offerRetryTimer);
    switch (frame.type) {
      case 'call:answer':
        if (s.role !== 'caller' || s.answered) return;
        s.answered = true;
        clearTimeout(s.ringTimer);
        this.set({ phase: 'active', outgoing: false, inCall: true, callAccepted: true });
        s.peer?.signal(frame.signal);
        return;
      case 'call:reject':
        if (s.role === 'caller' && !s.answered) this.finish(s, { callRejected: true });
        return;
      case 'call:end':
        return this.endedByServer(s, frame);
      case 'call:resumed':
        s.needsResume = false;
        return;
      case 'call:placed':
      case 'call:ringing':
        return;
    }
  };

  /** The realtime connection's status: after a drop, the call is claimed again on the new connection. */
  connectionChanged(status: ConnectionStatus): void {
    const was = this.status;
    this.status = status;
    const s = this.session;
    if (!s || status === was) return;
    if (status !== 'online') {
      if (s.announced) s.needsResume = true;
      // The attempt the held offer waited for failed: the caller is offline after all.
      else if (s.heldOffer && status === 'offline') this.finish(s, { error: CALL_MSG.notConnected });
      return;
    }
    const held = s.heldOffer;
    if (held) {
      s.heldOffer = undefined;
      if (this.deps.signals.sendCallFrame(held)) this.announce(s, held);
      else this.finish(s, { error: CALL_MSG.notConnected });
    }
    if (s.needsResume) {
      s.needsResume = false;
      this.deps.signals.sendCallFrame({ type: 'call:resume', callId: s.callId });
    }
  }

  /** Signing out or leaving the signed-in shell: the other side hears of it while the socket is still up. */
  dispose(): void {
    this.end();
    if (this.state.phase !== 'idle') this.set(IDLE);
  }

  private ring(frame: IncomingCallFrame): void {
    // An incoming call with an empty from is ignored (spec); a second one while busy is the server's to refuse.
    if (!frame.from.id || this.session) return;
    const s: Session = {
      callId: frame.callId,
      role: 'callee',
      other: frame.from,
      callType: frame.callType,
      offer: frame.signal,
      announced: false,
      answered: false,
      needsResume: false,
    };
    this.session = s;
    this.set({
      ...IDLE,
      phase: 'incoming',
      incoming: true,
      caller: frame.from,
      callType: frame.callType,
      callId: frame.callId,
    });
    this.deps.ringtone.start();
    // The server ends an unanswered call after ringTimeoutMs; should its call:end be lost, stop anyway.
    s.ringTimer = setTimeout(() => this.finish(s, {}), CALL.ringTimeoutMs + CALL.reconnectGraceMs);
    if (this.deps.isHidden()) {
      this.deps.platform
        .notify({
          title: `Incoming ${CALL_MSG.callKind(frame.callType)}`,
          body: `${personName(frame.from)} is calling you.`,
          route: '/call',
        })
        .catch(() => undefined);
    }
  }

  private endedByServer(s: Session, frame: CallEndedFrame): void {
    // This device's answer went out: the other devices' 'answered elsewhere' is not about it. Accepted here
    // but not answered yet (the media still opening), another device was first: it stops here.
    const elsewhere = frame.reason === 'answered_elsewhere' || frame.reason === 'rejected_elsewhere';
    if (elsewhere && s.announced) return;
    // A call that only rang here stops quietly, whatever ended it.
    const quiet = s.role === 'callee' && (!s.answered || elsewhere);
    this.finish(s, { error: quiet ? null : endText(frame.reason, frame.error) });
  }

  /** Media first (spec section 5); a refusal shows its message and cancels the call. */
  private async openMedia(s: Session): Promise<boolean> {
    try {
      const stream = await openLocalMedia(
        this.deps.platform,
        this.deps.getUserMedia,
        s.callType,
        () => this.session === s,
      );
      if (this.session !== s) {
        stopStream(stream);
        return false;
      }
      s.stream = stream;
      this.set({ localStream: stream, isMuted: false, isCameraOff: false });
      return true;
    } catch (error) {
      if (!(error instanceof MediaNoLongerWanted))
        this.fail(s, error instanceof Error ? error.message : CALL_MSG.failed);
      return false;
    }
  }

  private async rtcConfig(s: Session): Promise<PeerRtcConfig | null> {
    try {
      const rtc = await this.deps.loadRtcConfig();
      return this.session === s ? rtc : null;
    } catch {
      this.fail(s, this.deps.connectionStatus() === 'online' ? CALL_MSG.failed : CALL_MSG.notConnected);
      return null;
    }
  }

  /** A callee that cannot take the call tells the caller (a reject) rather than leaving it ringing. */
  private fail(s: Session, error: string): void {
    this.finish(s, { error, frame: leaveFrame(s, 'failed') });
  }

  private async openPeer(
    s: Session,
    { initiator, rtc }: { initiator: boolean; rtc: PeerRtcConfig },
  ): Promise<CallPeer | null> {
    if (!s.stream || this.session !== s) return null;
    let peer: CallPeer;
    try {
      peer = await this.deps.createPeer({ initiator, stream: s.stream, rtc }, this.peerEvents(s));
    } catch (error) {
      this.peerFailed(s, error instanceof Error ? error.message : CALL_MSG.failed);
      return null;
    }
    if (this.session !== s) {
      peer.destroy();
      return null;
    }
    s.peer = peer;
    return peer;
  }

  private peerEvents(s: Session): PeerEvents {
    const current = () => this.session === s;
    return {
      onSignal: (signal) => {
        if (!current() || s.announced || s.heldOffer) return;
        const frame: CallClientFrame =
          s.role === 'caller'
            ? { type: 'call:offer', callId: s.callId, to: s.other.id, callType: s.callType, signal }
            : { type: 'call:answer', callId: s.callId, to: s.other.id, signal };
        if (frame.signal.type !== (s.role === 'caller' ? 'offer' : 'answer')) return;
        if (this.deps.signals.sendCallFrame(frame)) return this.announce(s, frame);
        // A caller whose connection is still being made waits for it with its offer (startCall).
        if (frame.type === 'call:offer' && this.deps.connectionStatus() === 'connecting') {
          s.heldOffer = frame;
          return;
        }
        this.finish(s, { error: CALL_MSG.notConnected });
      },
      onStream: (remoteStream) => {
        if (current()) this.set({ remoteStream });
      },
      onConnect: () => {
        if (current() && this.state.connectedAt === null) this.set({ connectedAt: this.deps.now() });
      },
      onIceState: (ice) => {
        if (!current()) return;
        if (ice === 'disconnected') {
          clearTimeout(s.iceTimer);
          s.iceTimer = setTimeout(() => this.peerFailed(s, CALL_MSG.unavailable), CALL.iceDisconnectedMs);
        } else if (ice === 'connected' || ice === 'completed') {
          clearTimeout(s.iceTimer);
        }
      },
      onError: (error) => {
        if (current()) this.peerFailed(s, error.message || CALL_MSG.failed);
      },
      // Closed without an error: the other side left (its call:end may still be on the way).
      onClose: () => {
        if (current()) this.finish(s, { frame: leaveFrame(s, 'ended') });
      },
    };
  }

  /** The server now knows of the call from this device; a caller's offer goes again until it answers. */
  private announce(s: Session, frame: CallClientFrame): void {
    s.announced = true;
    if (frame.type === 'call:offer') this.armOfferRetry(s, { ...frame, retry: true });
  }

  /**
   * With several server nodes an offer can be lost with the node that coordinates calls, if it crashes
   * before it takes it: the callee would never ring, and the caller would wait out the ring timeout. Until
   * the server answers (`call:placed`, or anything else about the call), the offer goes again every
   * REALTIME_TIMING.unansweredRetryMs, marked `retry`: answered again if the first arrived, placed if not.
   */
  private armOfferRetry(s: Session, frame: CallOfferFrame): void {
    clearTimeout(s.offerRetryTimer);
    s.offerRetryTimer = setTimeout(() => {
      if (this.session !== s || s.answered) return;
      if (this.deps.signals.sendCallFrame(frame)) this.armOfferRetry(s, frame);
    }, REALTIME_TIMING.unansweredRetryMs);
  }

  /** The peer connection broke: the overlay shows why and the server hears 'failed'. */
  private peerFailed(s: Session, error: string): void {
    this.finish(s, { error, frame: leaveFrame(s, 'failed') });
  }

  private finish(s: Session, outcome: Outcome): void {
    if (this.session !== s) return;
    this.session = null;
    if (outcome.frame) this.deps.signals.sendCallFrame(outcome.frame);
    clearTimeout(s.iceTimer);
    clearTimeout(s.ringTimer);
    clearTimeout(s.offerRetryTimer);
    this.deps.ringtone.stop();
    s.peer?.destroy();
    stopStream(s.stream);
    const shown = outcome.error || outcome.callRejected;
    this.set(
      shown
        ? {
            ...IDLE,
            phase: 'ended',
            caller: this.state.caller,
            callee: this.state.callee,
            callType: this.state.callType,
            callId: this.state.callId,
            error: outcome.error ?? null,
            callRejected: outcome.callRejected ?? false,
          }
        : IDLE,
    );
  }

  private set(patch: Partial<CallState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener();
  }
}
