import { describe, expect, it, vi } from 'vitest';
import type { PeerEvents } from '../src/features/calls/peer';

/** simple-peer as the wrapper sees it: the options it was built with and its event handlers. */
const built: {
  options: unknown;
  handlers: Map<string, (...args: unknown[]) => void>;
  signals: unknown[];
  replaced: unknown[][];
}[] = [];
vi.mock('@thaunknown/simple-peer', () => ({
  default: class {
    private readonly record;
    constructor(options: unknown) {
      this.record = { options, handlers: new Map(), signals: [] as unknown[], replaced: [] as unknown[][] };
      built.push(this.record);
    }
    on(event: string, handler: (...args: unknown[]) => void) {
      this.record.handlers.set(event, handler);
      return this;
    }
    signal(data: unknown) {
      this.record.signals.push(data);
    }
    replaceTrack(...args: unknown[]) {
      if (args[0] === 'never-added') throw new Error('Cannot replace track that was never added.');
      this.record.replaced.push(args);
    }
    destroy() {}
  },
}));

const { createSimplePeer } = await import('../src/features/calls/peer');

function events(): PeerEvents & { seen: unknown[][] } {
  const seen: unknown[][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      void seen.push([name, ...args]);
  return {
    seen,
    onSignal: record('signal'),
    onStream: record('stream'),
    onConnect: record('connect'),
    onIceState: record('ice'),
    onError: record('error'),
    onClose: record('close'),
  };
}

describe('the simple-peer wrapper', () => {
  it("is non-trickle, takes the stream at construction and only the server's ICE servers", async () => {
    const stream = { id: 'local' } as unknown as MediaStream;
    const iceServers = [{ urls: 'turn:turn.campus.test:3478', username: 'u', credential: 'c' }];
    const heard = events();
    const peer = await createSimplePeer(
      { initiator: true, stream, rtc: { iceServers, iceTransportPolicy: 'relay' } },
      heard,
    );
    expect(built[0]!.options).toEqual({
      initiator: true,
      trickle: false,
      streams: [stream],
      config: { iceServers, iceTransportPolicy: 'relay' },
    });

    const on = (event: string, ...args: unknown[]) => built[0]!.handlers.get(event)!(...args);
    on('signal', { type: 'offer', sdp: 'v=0' });
    on('signal', { type: 'renegotiate', renegotiate: true });
    on('signal', { candidate: { candidate: 'x' } });
    on('iceStateChange', 'disconnected', 'complete');
    on('connect');
    on('close');
    expect(heard.seen).toEqual([
      ['signal', { type: 'offer', sdp: 'v=0' }],
      ['ice', 'disconnected'],
      ['connect'],
      ['close'],
    ]);

    peer.signal({ type: 'answer', sdp: 'v=0 answer' });
    expect(built[0]!.signals).toEqual([{ type: 'answer', sdp: 'v=0 answer' }]);
  });

  it('swaps a sent track without renegotiating; a failed swap is reported as a peer error', async () => {
    const stream = { id: 'sent' } as unknown as MediaStream;
    const heard = events();
    const peer = await createSimplePeer(
      { initiator: false, stream, rtc: { iceServers: [], iceTransportPolicy: 'all' } },
      heard,
    );
    const record = built.at(-1)!;
    const blurred = { id: 'blurred' } as unknown as MediaStreamTrack;
    const camera = { id: 'camera' } as unknown as MediaStreamTrack;
    peer.replaceTrack(blurred, camera, stream);
    expect(record.replaced).toEqual([[blurred, camera, stream]]);
    peer.replaceTrack('never-added' as unknown as MediaStreamTrack, camera, stream);
    expect(heard.seen).toEqual([['error', new Error('Cannot replace track that was never added.')]]);
  });
});
