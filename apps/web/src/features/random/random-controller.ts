import {
  RANDOM,
  REALTIME_TIMING,
  hasAnyFilter,
  type FocusedFilters,
  type MessageErrorFrame,
  type RandomClientFrame,
  type RandomEndReason,
  type RandomKind,
  type RandomServerFrame,
} from '@campus/protocol';
import type { ConnectionStatus, RandomSignalsApi } from '@campus/sync';
import { RandomActions, type ActionInput } from './random-actions';
import {
  connectedPatch,
  initialState,
  postPatch,
  RANDOM_TEXT,
  type RandomChatLine,
  type RandomState,
  type RoomEnd,
} from './random-state';
import { RoomMedia, type RoomMediaDeps } from './room-media';

export interface RandomControllerDeps extends RoomMediaDeps {
  signals: RandomSignalsApi;
  connectionStatus(): ConnectionStatus;
  /** The device itself has no network (the browser's `navigator.onLine` is false): no use waiting. */
  networkDown(): boolean;
  now(): number;
}

/**
 * How long Start waits for the realtime connection to come up before saying the device is offline. The
 * status reads 'offline' for a moment after the screen opens (before the first connect) and between
 * reconnect attempts on a dropping campus network; a press then used to fail at once with the offline text.
 */
export const START_CONNECT_WAIT_MS = 8_000;

/**
 * How long a room is kept after the connection dropped, waiting for it to come back and for random-resume's
 * answer: the server's grace (RANDOM.reconnectGraceMs, counted from when it saw the socket close) and a
 * margin for the answer. Past it the room is over here too.
 */
export const RESUME_WAIT_MS = RANDOM.reconnectGraceMs + 3_000;

/** Find: queue for random or focused talk. */
type FindFrame = Extract<RandomClientFrame, { type: 'find-partner' | 'join-random' }>;

/**
 * One random (or focused) talk screen's logic, apart from React: the queue, the room, its text or media,
 * the reveal and the post-room actions. Every way out of a room goes through `toPost` or `teardown`, which
 * close the media (every local track stopped).
 */
export class RandomController {
  private state: RandomState;
  private readonly listeners = new Set<() => void>();
  private media: RoomMedia | null = null;
  private findingTimer: ReturnType<typeof setTimeout> | undefined;
  /** Sends the Find again (`retry`) while nothing has answered it: see armFindRetry. */
  private findRetryTimer: ReturnType<typeof setTimeout> | undefined;
  private status: ConnectionStatus;
  /** Left behind by a dropped connection: the server hears of it once the connection is back. */
  private lostRoom: string | null = null;
  private lostQueue = false;
  /** The room kept through a dropped connection, until random-resume is answered: see holdRoom. */
  private resuming: { roomId: string; sent: boolean; giveUp: ReturnType<typeof setTimeout> } | null = null;
  private lineId = 0;
  /** Bumped by every start: a start that waited for the connection or media goes on only if still current. */
  private starts = 0;
  /** Starts waiting for the connection, told when the status changes. */
  private readonly connectionWaiters = new Set<() => void>();
  readonly actions: RandomActions;

  constructor(
    private readonly deps: RandomControllerDeps,
    kind: RandomKind,
    filters: FocusedFilters | null,
  ) {
    this.state = initialState(kind, filters && hasAnyFilter(filters) ? filters : null);
    this.status = deps.connectionStatus();
    this.actions = new RandomActions(
      (frame) => this.send(frame),
      (actionResult) => this.set({ actionResult }),
    );
  }

  getState = (): RandomState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /**
   * Start (or Start New from the post screen): media first for calls, then the queue. A connection still
   * coming up (just after the screen opened, or between reconnects) is waited for, up to
   * START_CONNECT_WAIT_MS, with the start's overlay shown.
   */
  async start(): Promise<void> {
    const { phase, kind, filters } = this.state;
    if (phase === 'starting' || phase === 'finding' || phase === 'connected') return;
    const start = ++this.starts;
    const current = () => start === this.starts && this.state.phase === 'starting';
    this.set({ ...this.idle(), phase: 'starting' });
    if (this.deps.networkDown()) return this.failStart(RANDOM_TEXT.offline, null);
    if (kind !== 'chat') {
      const media = this.newMedia(kind);
      try {
        const localStream = await media.open();
        if (this.media !== media || !current()) return media.close();
        this.set({ localStream });
      } catch (error) {
        if (this.media !== media || !current()) return;
        return this.failStart(error instanceof Error ? error.message : RANDOM_TEXT.offline, 'media');
      }
    }
    // Online already (the usual case): no await, so a chat's search starts in the same turn as the press.
    if (this.deps.connectionStatus() !== 'online') {
      const online = await this.whenOnline();
      if (!current()) return;
      this.set({ awaitingConnection: false });
      if (!online) return this.failStart(RANDOM_TEXT.offline, null);
    }
    const withFilters = filters ? { filters } : {};
    const frame: FindFrame =
      kind === 'chat'
        ? { type: 'join-random', ...withFilters }
        : { type: 'find-partner', kind, ...withFilters };
    if (!this.send(frame)) return this.failStart(RANDOM_TEXT.offline, null);
    this.set({ phase: 'finding', findingSince: this.deps.now() });
    this.armFindingTimer();
    this.armFindRetry({ ...frame, retry: true });
  }

  /**
   * With several server nodes a Find can be lost with the node that coordinates random talk, if it crashes
   * before it takes it: the search would then show "finding" until the countdown ran out, with nobody
   * looking. Until something answers (`random-queue`, a match, a refusal, or the search ends here), the Find
   * goes again every REALTIME_TIMING.unansweredRetryMs, marked `retry`: the server answers it again if the
   * first arrived, and queues it if not. A connection that drops ends the search anyway (connectionChanged).
   */
  private armFindRetry(frame: FindFrame): void {
    clearTimeout(this.findRetryTimer);
    this.findRetryTimer = setTimeout(() => {
      if (this.state.phase !== 'finding') return;
      if (this.send(frame)) this.armFindRetry(frame);
    }, REALTIME_TIMING.unansweredRetryMs);
  }

  /**
   * True once the realtime connection comes up, within START_CONNECT_WAIT_MS; false when the device loses
   * its network meanwhile or the wait runs out.
   */
  private whenOnline(): Promise<boolean> {
    this.set({ awaitingConnection: true });
    return new Promise((resolve) => {
      const check = () => {
        const online = this.deps.connectionStatus() === 'online';
        if (!online && !this.deps.networkDown()) return;
        done(online);
      };
      const done = (online: boolean) => {
        clearTimeout(timer);
        this.connectionWaiters.delete(check);
        resolve(online);
      };
      const timer = setTimeout(() => done(false), START_CONNECT_WAIT_MS);
      this.connectionWaiters.add(check);
    });
  }

  /** Past the countdown: stay in the queue. */
  keepWaiting(): void {
    if (this.state.phase === 'finding') this.set({ noOneFound: false, keptWaiting: true });
  }

  /** Stop waiting (Cancel). */
  cancel(): void {
    if (!this.waiting()) return;
    this.send({ type: 'leave-random-queue' });
    this.stopWaiting({});
  }

  /** End, End Call, End Chat: the room ends for both. */
  end(): void {
    const { phase, roomId, kind } = this.state;
    if (phase !== 'connected' || !roomId) return;
    this.send(kind === 'chat' ? { type: 'leave-random-room', roomId } : { type: 'end-call', roomId });
    this.toPost('you_left');
  }

  /** Start New Call / Chat: back to idle, timers and flags reset. */
  reset(): void {
    if (this.state.phase !== 'post' && this.state.phase !== 'idle') return;
    this.teardown();
    this.set(this.idle());
  }

  /** Leaving the screen or closing the tab: the server hears it now, while the socket is still up. */
  leave(): void {
    const { phase, roomId } = this.state;
    if (phase === 'finding' || phase === 'starting') this.send({ type: 'leave-random-queue' });
    if (phase === 'connected' && roomId) this.send({ type: 'leave-random-room', roomId });
    this.teardown();
    if (phase !== 'idle' && phase !== 'post') this.set(this.idle());
  }

  /** Unmounting (React may mount the same controller again in development: nothing here is final). */
  dispose(): void {
    this.leave();
    this.actions.dispose();
  }

  /** Random chat: ignored when the trimmed text is empty or there is no room (spec section 5). */
  sendMessage(text: string): boolean {
    const trimmed = text.trim();
    const { phase, roomId } = this.state;
    if (!trimmed || phase !== 'connected' || !roomId) return false;
    // Numbered, so that sent again (resumed below, or by a node after a crash) it reaches the partner once.
    const n = this.mine().length + 1;
    if (!this.send({ type: 'chat-message', roomId, text: trimmed, n })) return false;
    this.addLine(true, trimmed, new Date(this.deps.now()).toISOString());
    return true;
  }

  setTyping(typing: boolean): void {
    const { phase, roomId } = this.state;
    if (phase === 'connected' && roomId) this.send({ type: 'random-typing', roomId, typing });
  }

  toggleMute(): void {
    const isMuted = !this.state.isMuted;
    this.media?.setMuted(isMuted);
    this.set({ isMuted });
  }

  /** Reveal (true) or take it back (false): taking it back blurs again at once, for both. */
  setReveal(reveal: boolean): void {
    const { phase, roomId, kind } = this.state;
    if (phase !== 'connected' || !roomId || kind !== 'video') return;
    if (!this.send({ type: 'random-reveal', roomId, reveal })) return;
    const both = reveal ? this.state.reveal.both : false;
    if (!reveal) this.media?.setRevealed(false);
    this.set({ reveal: { ...this.state.reveal, mine: reveal, both } });
  }

  /** Add Friend, Block or Report the partner of this (or the last) room; resolves with the server's text. */
  act(input: ActionInput): Promise<string> {
    return this.actions.act(this.state.roomId, input);
  }

  /** Every random-talk frame the server sends this device. */
  receive = (frame: RandomServerFrame): void => {
    switch (frame.type) {
      case 'random-queue':
        if (this.waiting() && frame.kind === this.state.kind) {
          clearTimeout(this.findRetryTimer);
          this.set({ phase: 'finding', widened: frame.widened });
        }
        return;
      case 'partner-found':
      case 'random-matched':
        return this.matched(frame);
      case 'random-resumed':
        return this.resumed(frame.roomId, frame.said);
      case 'random-action-result':
        return this.actions.result(frame);
      case 'random-refused':
        if (this.waiting()) this.stopWaiting({ error: frame.error, errorCode: frame.code });
        return;
      case 'call-ended':
      case 'random-chat-ended':
        return this.ended(frame.roomId, frame.reason);
      case 'chat-message':
      case 'random-typing':
      case 'incoming-call':
      case 'call-accepted':
      case 'random-reveal':
        return this.inRoom(frame);
    }
  };

  /**
   * A random frame refused before it reached random talk (the access policy, a frame budget, a bad frame):
   * a search being started stops with the reason; an action waiting for its answer gets it.
   */
  refused = (frame: MessageErrorFrame): void => {
    if (frame.context === 'random-action') return this.actions.refused(frame.error);
    const queueing = frame.context === 'find-partner' || frame.context === 'join-random';
    if (queueing && this.waiting()) this.stopWaiting({ error: frame.error });
  };

  /** A dropped connection keeps the room for a while (holdRoom) and stops a search. */
  connectionChanged(status: ConnectionStatus): void {
    const was = this.status;
    this.status = status;
    if (status === was) return;
    for (const check of [...this.connectionWaiters]) check();
    if (status === 'online') {
      if (this.lostRoom) this.send({ type: 'leave-random-room', roomId: this.lostRoom });
      if (this.lostQueue) this.send({ type: 'leave-random-queue' });
      this.lostRoom = null;
      this.lostQueue = false;
      this.sendResume();
      return;
    }
    if (was !== 'online') return;
    const { phase, roomId } = this.state;
    if (phase === 'connected' && roomId) {
      this.holdRoom(roomId);
    } else if (this.waiting()) {
      this.lostQueue = true;
      this.stopWaiting({ error: RANDOM_TEXT.queueLost });
    }
  }

  private waiting(): boolean {
    return this.state.phase === 'finding' || this.state.phase === 'starting';
  }

  private idle(): RandomState {
    return initialState(this.state.kind, this.state.filters);
  }

  private matched(frame: Extract<RandomServerFrame, { type: 'partner-found' | 'random-matched' }>): void {
    const kind = frame.type === 'random-matched' ? 'chat' : frame.kind;
    if (kind !== this.state.kind) return;
    if (this.waiting()) return this.connect(frame);
    // Not wanted any more (cancelled meanwhile): the partner must not wait for nobody.
    if (frame.roomId !== this.state.roomId) this.send({ type: 'leave-random-room', roomId: frame.roomId });
  }

  /**
   * A dropped connection keeps the room for the server's grace: the media go on between the browsers
   * without the server, and once the connection is back (on any node: a draining node sends its clients
   * elsewhere) random-resume takes this side back, with the partner's lines sent meanwhile. Not back, or not
   * answered, within RESUME_WAIT_MS: the room is over here too. A drop while already waiting for the answer
   * sends it again once back, within the same wait.
   */
  private holdRoom(roomId: string): void {
    if (this.resuming?.roomId === roomId) {
      this.resuming.sent = false;
      return;
    }
    this.clearResume();
    const giveUp = setTimeout(() => this.resumeFailed(roomId), RESUME_WAIT_MS);
    this.resuming = { roomId, sent: false, giveUp };
    this.set({ reconnecting: true, partnerTyping: false });
  }

  private sendResume(): void {
    const resuming = this.resuming;
    if (!resuming || resuming.sent) return;
    // What this device has of the partner's lines: the server sends the rest after random-resumed.
    resuming.sent = this.send({ type: 'random-resume', roomId: resuming.roomId, heard: this.heard() });
  }

  /**
   * The side is back: this device's lines after the `said` the room has were lost with the drop, sent again.
   * A server that does not say (older than this device) would not know a line it already has: none go again.
   */
  private resumed(roomId: string, said: number | undefined): void {
    if (this.resuming?.roomId !== roomId) return;
    this.clearResume();
    this.set({ reconnecting: false });
    if (said === undefined) return;
    this.mine()
      .slice(said)
      .forEach((line, k) => this.send({ type: 'chat-message', roomId, text: line.text, n: said + k + 1 }));
  }

  /** This device's own lines in the room, in order (line k's number is k + 1). */
  private mine(): RandomChatLine[] {
    return this.state.messages.filter((line) => line.mine);
  }

  /** How many of the partner's lines this device has. */
  private heard(): number {
    return this.state.messages.length - this.mine().length;
  }

  /** The room could not be taken back in time: over here, and the server hears so once it can. */
  private resumeFailed(roomId: string): void {
    if (this.resuming?.roomId !== roomId) return;
    this.clearResume();
    if (this.state.roomId !== roomId || this.state.phase !== 'connected') return;
    if (this.status === 'online') this.send({ type: 'leave-random-room', roomId });
    else this.lostRoom = roomId;
    this.toPost('connection');
  }

  private clearResume(): void {
    if (this.resuming) clearTimeout(this.resuming.giveUp);
    this.resuming = null;
  }

  private ended(roomId: string, reason: RandomEndReason): void {
    if (roomId === this.state.roomId && this.state.phase === 'connected') {
      // The room was not kept for this side while its connection was down: that, not the partner, ended it.
      const lostHere = this.resuming?.roomId === roomId && reason === 'disconnected';
      return this.toPost(lostHere ? 'connection' : reason);
    }
    // A wait ended by the server (another device took over, a restriction).
    if (this.waiting() && (reason === 'other_device' || reason === 'restricted')) {
      this.stopWaiting({ ended: reason });
    }
  }

  /** What the partner says within the room: text, typing, the WebRTC descriptions, the reveal. */
  private inRoom(
    frame: Extract<
      RandomServerFrame,
      { type: 'chat-message' | 'random-typing' | 'incoming-call' | 'call-accepted' | 'random-reveal' }
    >,
  ): void {
    const s = this.state;
    if (frame.roomId !== s.roomId || s.phase !== 'connected') return;
    switch (frame.type) {
      case 'chat-message':
        // Until random-resume is answered the partner's lines wait for its count: a line taken now could
        // stand after one the drop lost, and the count would say that one arrived too.
        if (this.resuming) return;
        // One this device has (sent again after a coordinator crash): shown once.
        if (frame.i !== undefined && frame.i <= this.heard()) return;
        return this.addLine(false, frame.text, frame.timestamp);
      case 'random-typing':
        return this.set({ partnerTyping: frame.typing });
      case 'incoming-call':
      case 'call-accepted':
        return this.media?.receiveSignal(frame.signal);
      case 'random-reveal': {
        const both = frame.both && s.reveal.mine;
        this.media?.setRevealed(both);
        return this.set({ reveal: { mine: s.reveal.mine, partner: frame.partner, both } });
      }
    }
  }

  private connect(frame: Extract<RandomServerFrame, { type: 'partner-found' | 'random-matched' }>): void {
    clearTimeout(this.findingTimer);
    clearTimeout(this.findRetryTimer);
    this.set(connectedPatch(frame, this.deps.now()));
    if (frame.type !== 'partner-found' || !this.media) return;
    const media = this.media;
    media.connect(frame.isInitiator).catch((error: unknown) => this.mediaFailed(media, frame.roomId, error));
  }

  /**
   * The room's media could not be set up (the ICE servers did not load: offline, or the hourly limit): no
   * audio or video would ever flow, and both sides would wait on 'Connecting…'. The room ends as an End
   * would, saying why; the partner hears it ended and can start anew. (A peer's own errors once it runs
   * are only logged, spec section 8: the server ends that room.)
   */
  private mediaFailed(media: RoomMedia, roomId: string, error: unknown): void {
    console.warn('[random] could not connect the media', error);
    if (this.media !== media || this.state.roomId !== roomId || this.state.phase !== 'connected') return;
    // Offline (one way the load fails): the server hears of it once the connection is back.
    if (!this.send({ type: 'end-call', roomId })) this.lostRoom = roomId;
    this.toPost('you_left');
    this.set({ error: RANDOM_TEXT.mediaFailed });
  }

  private newMedia(kind: 'audio' | 'video'): RoomMedia {
    this.media?.close();
    const media = new RoomMedia(this.deps, kind, {
      onSignal: (signal) => {
        const roomId = this.state.roomId;
        if (this.media !== media || !roomId) return;
        this.send(
          signal.type === 'offer'
            ? { type: 'call-user', roomId, signalData: signal }
            : { type: 'answer-call', roomId, signal },
        );
      },
      onRemoteStream: (remoteStream) => {
        if (this.media === media) this.set({ remoteStream });
      },
      onConnected: () => {
        if (this.media === media) this.set({ mediaConnected: true });
      },
    });
    this.media = media;
    return media;
  }

  private armFindingTimer(): void {
    clearTimeout(this.findingTimer);
    this.findingTimer = setTimeout(() => {
      if (this.state.phase === 'finding' && !this.state.keptWaiting) this.set({ noOneFound: true });
    }, RANDOM.findingSeconds * 1000);
  }

  private failStart(error: string, errorCode: RandomState['errorCode']): void {
    this.stopWaiting({ error, errorCode });
  }

  /** Back to idle from the queue (or its start), saying why. */
  private stopWaiting(patch: Partial<RandomState>): void {
    this.teardown();
    this.set({ ...this.idle(), ...patch });
  }

  private toPost(reason: RoomEnd): void {
    this.teardown();
    this.set(postPatch(reason));
  }

  /** Timers off, media closed (every local track stopped). */
  private teardown(): void {
    clearTimeout(this.findingTimer);
    clearTimeout(this.findRetryTimer);
    this.clearResume();
    this.media?.close();
    this.media = null;
  }

  private addLine(mine: boolean, text: string, timestamp: string): void {
    this.lineId += 1;
    const line = { id: this.lineId, mine, text, timestamp };
    this.set({ messages: [...this.state.messages, line], partnerTyping: mine && this.state.partnerTyping });
  }

  private send(frame: RandomClientFrame): boolean {
    return this.deps.signals.sendRandomFrame(frame);
  }

  private set(patch: Partial<RandomState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener();
  }
}
