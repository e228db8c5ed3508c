import type { Platform, SessionDescription } from '@campus/protocol';
import { forStrangers } from '../calls/rtc-config';
import { MediaNoLongerWanted, openLocalMedia, stopStream, type GetUserMedia } from '../calls/media';
import type { CallPeer, PeerFactory, PeerRtcConfig } from '../calls/peer';
import type { BlurredVideo, BlurVideo } from './blur-video';

export interface RoomMediaDeps {
  platform: Platform;
  getUserMedia: GetUserMedia;
  loadRtcConfig(): Promise<PeerRtcConfig>;
  createPeer: PeerFactory;
  blurVideo: BlurVideo;
}

export interface RoomMediaEvents {
  /** This side's whole offer (initiator) or answer, once. */
  onSignal(description: SessionDescription): void;
  onRemoteStream(stream: MediaStream): void;
  onConnected(): void;
}

/**
 * The media of one random audio or video room, with the call layer's pieces (media through the Platform,
 * the simple-peer wrapper, stopStream): the microphone (and camera), the peer, and for video the sender-side
 * blur until both revealed. `close` stops every local track whatever state it is in.
 */
export class RoomMedia {
  private local: MediaStream | null = null;
  private blur: BlurredVideo | null = null;
  private peer: CallPeer | null = null;
  private pendingSignal: SessionDescription | null = null;
  private showingCamera = false;
  private wantCamera = false;
  private signalled = false;
  private closed = false;

  constructor(
    private readonly deps: RoomMediaDeps,
    private readonly kind: 'audio' | 'video',
    private readonly events: RoomMediaEvents,
  ) {}

  /** The microphone (and camera); rejects with the text to show. The stream is for the local preview. */
  async open(): Promise<MediaStream> {
    // Left while a permission was asked: the camera is not asked for next.
    const stream = await openLocalMedia(
      this.deps.platform,
      this.deps.getUserMedia,
      this.kind,
      () => !this.closed,
    );
    if (this.closed) {
      stopStream(stream);
      throw new MediaNoLongerWanted();
    }
    this.local = stream;
    if (this.kind === 'video') {
      try {
        this.blur = this.deps.blurVideo(stream);
      } catch (error) {
        this.close();
        throw error;
      }
    }
    return stream;
  }

  /** The room started: the peer, with the blurred stream for video. The initiator's offer goes out. */
  async connect(initiator: boolean): Promise<void> {
    const sent = this.blur?.stream ?? this.local;
    if (!sent || this.closed) return;
    // Relay only, where the server has TURN: a random partner must not learn this device's address.
    const rtc = forStrangers(await this.deps.loadRtcConfig());
    if (this.closed) return;
    const peer = await this.deps.createPeer(
      { initiator, stream: sent, rtc },
      {
        onSignal: (description) => {
          if (this.closed || this.signalled) return;
          if (description.type !== (initiator ? 'offer' : 'answer')) return;
          this.signalled = true;
          this.events.onSignal(description);
        },
        onStream: (stream) => {
          if (!this.closed) this.events.onRemoteStream(stream);
        },
        onConnect: () => {
          if (!this.closed) this.events.onConnected();
        },
        onIceState: () => undefined,
        // The spec: peer errors on the random screens are only logged; the server ends the room.
        onError: (error) => console.warn('[random] peer error', error.message),
        onClose: () => undefined,
      },
    );
    if (this.closed) {
      peer.destroy();
      return;
    }
    this.peer = peer;
    if (this.pendingSignal) {
      peer.signal(this.pendingSignal);
      this.pendingSignal = null;
    }
    this.applyReveal();
  }

  /** The partner's offer or answer (it may arrive before the peer is built). */
  receiveSignal(description: SessionDescription): void {
    if (this.closed) return;
    if (this.peer) this.peer.signal(description);
    else this.pendingSignal = description;
  }

  /** Both revealed: the camera's own track goes out; otherwise the blurred one. */
  setRevealed(revealed: boolean): void {
    this.wantCamera = revealed;
    this.applyReveal();
  }

  private applyReveal(): void {
    const camera = this.local?.getVideoTracks()[0];
    const revealed = this.wantCamera;
    if (!this.blur || !camera || !this.peer || revealed === this.showingCamera) return;
    const [from, to] = revealed ? [this.blur.blurred, camera] : [camera, this.blur.blurred];
    this.peer.replaceTrack(from, to, this.blur.stream);
    this.showingCamera = revealed;
  }

  setMuted(muted: boolean): void {
    this.local?.getAudioTracks().forEach((track) => (track.enabled = !muted));
  }

  close(): void {
    this.closed = true;
    this.peer?.destroy();
    this.peer = null;
    this.blur?.stop();
    this.blur = null;
    stopStream(this.local);
    this.local = null;
  }
}
