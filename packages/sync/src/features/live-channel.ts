import type { ClientFrame } from '@campus/protocol';
import type { FrameSender, SessionFrame } from '../feature-contract';

/**
 * A feature's frames on the live session (call signalling, random talk). Nothing is queued: they need the
 * connection now, so a frame that cannot go out is reported (false) and the screen says so. Frames heard go
 * to every listener as they arrive.
 */
export class LiveChannel<Out extends ClientFrame, In extends SessionFrame> {
  private readonly listeners = new Set<(frame: In) => void>();

  constructor(
    private readonly send: FrameSender,
    private readonly name: string,
  ) {}

  sendFrame(frame: Out): boolean {
    return this.send(frame);
  }

  listen(listener: (frame: In) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  protected emit(frame: In): void {
    for (const listener of [...this.listeners]) {
      // One broken screen must not keep the frame from the others (or from the engine's next frame).
      try {
        listener(frame);
      } catch (error) {
        console.error(`[sync] a ${this.name} frame listener failed`, error);
      }
    }
  }
}
