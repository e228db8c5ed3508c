import type { CallClientFrame, CallServerFrame } from '@campus/protocol';
import type { FrameSender, SessionFrameHandlers } from '../../feature-contract';

type Listener = (frame: CallServerFrame) => void;

/**
 * Call signalling on the live session. Nothing is queued: a call needs the connection now, so a frame that
 * cannot go out is reported (false) and the screen says so. Frames heard go to every listener as they arrive.
 */
export class CallSignals {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly send: FrameSender) {}

  sendFrame(frame: CallClientFrame): boolean {
    return this.send(frame);
  }

  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The engine's table of session frames: every call frame type goes to the listeners. */
  handlers(): Pick<SessionFrameHandlers, CallServerFrame['type']> {
    const emit = (frame: CallServerFrame) => this.emit(frame);
    return {
      'call:offer': emit,
      'call:answer': emit,
      'call:reject': emit,
      'call:end': emit,
      'call:ringing': emit,
      'call:resumed': emit,
    };
  }

  private emit(frame: CallServerFrame): void {
    for (const listener of [...this.listeners]) {
      // One broken screen must not keep the frame from the others (or from the engine's next frame).
      try {
        listener(frame);
      } catch (error) {
        console.error('[sync] a call frame listener failed', error);
      }
    }
  }
}
