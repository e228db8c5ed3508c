import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';

/** Why a frame is refused: the socket is closed with this code and reason, and the frame is not applied. */
export interface FrameRefusal {
  code: number;
  reason: string;
}

/**
 * The part of a `ws` socket that @y/websocket-server's setupWSConnection uses, with every incoming frame
 * passed through `admit` first. Closing the raw socket from an ordinary listener would not stop the Yjs
 * listener registered beside it from applying the frame; here a refused frame never reaches it.
 */
export class GuardedSocket extends EventEmitter {
  constructor(
    private readonly raw: WebSocket,
    admit: (frame: ArrayBuffer | Buffer) => FrameRefusal | null,
  ) {
    super();
    raw.on('message', (data, isBinary) => {
      // Yjs speaks binary only; text frames carry nothing it could apply.
      if (!isBinary || Array.isArray(data)) return;
      const refusal = admit(data);
      if (refusal) {
        raw.close(refusal.code, refusal.reason);
        return;
      }
      this.emit('message', data);
    });
    raw.on('close', () => this.emit('close'));
    raw.on('pong', () => this.emit('pong'));
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
