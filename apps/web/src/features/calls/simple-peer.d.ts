/** The part of @thaunknown/simple-peer (which ships no types) that the call layer uses. */
declare module '@thaunknown/simple-peer' {
  interface SimplePeerOptions {
    initiator?: boolean;
    trickle?: boolean;
    streams?: MediaStream[];
    config?: RTCConfiguration;
  }
  interface SimplePeerSignal {
    type?: string;
    sdp?: string;
  }
  export default class SimplePeer {
    constructor(options?: SimplePeerOptions);
    signal(data: SimplePeerSignal): void;
    replaceTrack(oldTrack: MediaStreamTrack, newTrack: MediaStreamTrack, stream: MediaStream): void;
    destroy(error?: Error): void;
    on(event: 'signal', listener: (data: SimplePeerSignal) => void): this;
    on(event: 'stream', listener: (stream: MediaStream) => void): this;
    on(event: 'connect' | 'close', listener: () => void): this;
    on(event: 'iceStateChange', listener: (ice: RTCIceConnectionState, gathering: string) => void): this;
    on(event: 'error', listener: (error: Error & { code?: string }) => void): this;
  }
}
