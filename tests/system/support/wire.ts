import type { ClientFrame, ServerFrame } from '../../../packages/protocol/src';

/** A server frame as it came off the wire: its type, and the text the client got (to deliver it again). */
export interface ReceivedFrame<F extends ServerFrame = ServerFrame> {
  type: F['type'];
  data: string;
  frame: F;
}

/**
 * What one device's sockets did, seen from the device's side of the network: every connection opened, every
 * frame sent and received, in order. Tests watch the wire here and use the proxy (flaky-proxy.ts) to break it.
 */
export interface Wire {
  /** Sockets the client opened, the failed and the refused included. */
  readonly connections: number;
  readonly sent: readonly ClientFrame[];
  readonly received: readonly ReceivedFrame[];
  /** The close code of every socket that closed, in order. */
  readonly closeCodes: readonly number[];
  sentOf<T extends ClientFrame['type']>(type: T): Extract<ClientFrame, { type: T }>[];
  receivedOf<T extends ServerFrame['type']>(type: T): ReceivedFrame<Extract<ServerFrame, { type: T }>>[];
  /** Runs as each frame is sent (it is already on its way). */
  onSend: ((frame: ClientFrame) => void) | null;
  /** Runs as each frame arrives, before the client reads it. */
  onReceive: ((frame: ReceivedFrame) => void) | null;
  /** The network delivers `data` again on the newest socket: a duplicated frame, as a retransmission would. */
  redeliver(data: string): void;
  readonly WebSocketImpl: typeof WebSocket;
}

/** Node's global WebSocket, recording for `Wire`. */
export function recordingWire(): Wire {
  const sent: ClientFrame[] = [];
  const received: ReceivedFrame[] = [];
  const closeCodes: number[] = [];
  let latest: WebSocket | null = null;
  let connections = 0;
  const opened = (socket: WebSocket) => {
    connections += 1;
    latest = socket;
  };
  const wire: Wire = {
    get connections() {
      return connections;
    },
    sent,
    received,
    closeCodes,
    sentOf: <T extends ClientFrame['type']>(type: T) =>
      sent.filter((f): f is Extract<ClientFrame, { type: T }> => f.type === type),
    receivedOf: <T extends ServerFrame['type']>(type: T) =>
      received.filter((f): f is ReceivedFrame<Extract<ServerFrame, { type: T }>> => f.type === type),
    onSend: null,
    onReceive: null,
    redeliver(data) {
      latest?.dispatchEvent(new MessageEvent('message', { data }));
    },
    WebSocketImpl: class RecordingWebSocket extends WebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        opened(this);
        // Registered before the client sets onmessage, so it runs first.
        this.addEventListener('message', (event: MessageEvent) => {
          if (typeof event.data !== 'string') return;
          const frame = JSON.parse(event.data) as ServerFrame;
          const entry = { type: frame.type, data: event.data, frame };
          received.push(entry);
          wire.onReceive?.(entry);
        });
        this.addEventListener('close', (event: CloseEvent) => closeCodes.push(event.code));
      }
      override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
        super.send(data);
        if (typeof data !== 'string') return;
        const frame = JSON.parse(data) as ClientFrame;
        sent.push(frame);
        wire.onSend?.(frame);
      }
    },
  };
  return wire;
}
