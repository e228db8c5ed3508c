import type { CallClientFrame, CallServerFrame } from '@campus/protocol';
import type { FrameSender, SessionFrameHandlers } from '../../feature-contract';
import { LiveChannel } from '../live-channel';

/** Call signalling on the live session: never queued, heard by every listener as it arrives. */
export class CallSignals extends LiveChannel<CallClientFrame, CallServerFrame> {
  constructor(send: FrameSender) {
    super(send, 'call');
  }

  /** The engine's table of session frames: every call frame type goes to the listeners. */
  handlers(): Pick<SessionFrameHandlers, CallServerFrame['type']> {
    const emit = (frame: CallServerFrame) => this.emit(frame);
    return {
      'call:offer': emit,
      'call:answer': emit,
      'call:reject': emit,
      'call:end': emit,
      'call:placed': emit,
      'call:ringing': emit,
      'call:resumed': emit,
    };
  }
}
