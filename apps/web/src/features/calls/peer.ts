import type { SessionDescription } from '@campus/protocol';

/** ICE servers from GET /api/rtc/config; never simple-peer's default (third-party STUN). */
export interface PeerRtcConfig {
  iceServers: RTCIceServer[];
  iceTransportPolicy: RTCIceTransportPolicy;
}

export interface PeerOptions {
  /** The caller starts the negotiation. */
  initiator: boolean;
  /** The local media, given at construction: a call never renegotiates. */
  stream: MediaStream;
  rtc: PeerRtcConfig;
}

/** What the call layer hears from its peer connection. */
export interface PeerEvents {
  /** The whole description (non-trickle: with every candidate), once. */
  onSignal(description: SessionDescription): void;
  onStream(stream: MediaStream): void;
  onConnect(): void;
  onIceState(state: RTCIceConnectionState): void;
  onError(error: Error): void;
  /** The connection closed (the other side left, or after an error). */
  onClose(): void;
}

export interface CallPeer {
  signal(description: SessionDescription): void;
  /**
   * Swaps what one sent track carries, without renegotiation (random video: the blurred picture, then the
   * camera once both revealed). `stream` is the stream the peer was built with.
   */
  replaceTrack(oldTrack: MediaStreamTrack, newTrack: MediaStreamTrack, stream: MediaStream): void;
  destroy(): void;
}

/** Builds a peer; tests put a fake in its place (CallDepsContext). */
export type PeerFactory = (options: PeerOptions, events: PeerEvents) => Promise<CallPeer>;

/**
 * The real peer: @thaunknown/simple-peer, loaded with the first call (it stays out of the shell's chunk).
 * Its RTCPeerConnection is the page's own `window.RTCPeerConnection`, looked up when the module loads.
 */
export const createSimplePeer: PeerFactory = async ({ initiator, stream, rtc }, events) => {
  const { default: SimplePeer } = await import('@thaunknown/simple-peer');
  const peer = new SimplePeer({
    initiator,
    trickle: false,
    streams: [stream],
    config: { iceServers: rtc.iceServers, iceTransportPolicy: rtc.iceTransportPolicy },
  });
  peer.on('signal', (data) => {
    // Only whole offers and answers travel (no renegotiation, no trickled candidates).
    if ((data.type === 'offer' || data.type === 'answer') && data.sdp) {
      events.onSignal({ type: data.type, sdp: data.sdp });
    }
  });
  peer.on('stream', (remote) => events.onStream(remote));
  peer.on('connect', () => events.onConnect());
  peer.on('iceStateChange', (state) => events.onIceState(state));
  peer.on('error', (error) => events.onError(error));
  peer.on('close', () => events.onClose());
  return {
    signal(description) {
      try {
        peer.signal(description);
      } catch (error) {
        events.onError(error instanceof Error ? error : new Error(String(error)));
      }
    },
    replaceTrack(oldTrack, newTrack, sent) {
      try {
        peer.replaceTrack(oldTrack, newTrack, sent);
      } catch (error) {
        events.onError(error instanceof Error ? error : new Error(String(error)));
      }
    },
    destroy: () => peer.destroy(),
  };
};
