import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';

/** Why a frame is refused: the socket is closed with this code and reason, and the frame is not applied. */
export interface FrameRefusal {
  code: number;
  reason: string;
}

/**
 * What happens to a frame: refused (the socket closes), delivered to Yjs (as received, or as `frame`: an
 * awareness message with other members' relayed entries taken out), or dropped quietly (nothing in it to apply).
 */
export type FrameVerdict =
  ({ kind: 'refuse' } & FrameRefusal) | { kind: 'deliver'; frame?: Uint8Array } | { kind: 'drop' };

/** The checks around each incoming frame. */
export interface FrameGate {
  /** Before Yjs sees the frame (null for a text frame). */
  admit(frame: Uint8Array | null): FrameVerdict;
  /** Right after Yjs applied a delivered frame (setupWSConnection's listener is synchronous). */
  settle(): FrameRefusal | null;
  /** The socket closed. */
  closed(): void;
}

/**
 * The part of a `ws` socket that @y/websocket-server's setupWSConnection uses, with every incoming frame
 * passed through the gate first. Closing the raw socket from an ordinary listener would not stop the Yjs
 * listener registered beside it from applying the frame; here a refused frame never reaches it, and nothing
 * after a refusal does either (ws keeps delivering frames that arrive while the close handshake runs).
 */
export class GuardedSocket extends EventEmitter {
  private refused = false;

  constructor(
    private readonly raw: WebSocket,
    gate: FrameGate,
  ) {
    super();
    raw.on('message', (data, isBinary) => {
      if (this.refused) return;
      // Yjs speaks binary only; with binaryType 'arraybuffer' (set by setupWSConnection) data is an ArrayBuffer.
      const frame = isBinary ? toBytes(data) : null;
      const verdict = gate.admit(frame);
      if (verdict.kind === 'refuse') return this.refuse(verdict);
      if (verdict.kind === 'drop' || frame === null) return;
      this.emit('message', verdict.frame ?? data);
      const late = gate.settle();
      if (late) this.refuse(late);
    });
    raw.on('close', () => {
      gate.closed();
      this.emit('close');
    });
    raw.on('pong', () => this.emit('pong'));
  }

  private refuse(refusal: FrameRefusal): void {
    this.refused = true;
    this.raw.close(refusal.code, refusal.reason);
  }

  set binaryType(type: 'arraybuffer' | 'nodebuffer') {
    this.raw.binaryType = type;
  }

  get readyState(): number {
    return this.raw.readyState;
  }

  send(data: Uint8Array, options: object, callback: (err?: Error) => void): void {
    this.raw.send(data, options, callback);
  }

  ping(): void {
    this.raw.ping();
  }

  close(code?: number, reason?: string): void {
    this.raw.close(code, reason);
  }
}

function toBytes(data: ArrayBuffer | Buffer | Buffer[]): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return Array.isArray(data) ? Buffer.concat(data) : data;
}
