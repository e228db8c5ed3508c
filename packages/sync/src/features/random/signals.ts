import type { RandomClientFrame, RandomServerFrame } from '@campus/protocol';
import type { FrameSender, SessionFrameHandlers } from '../../feature-contract';
import { LiveChannel } from '../live-channel';

/**
 * Random and focused talk on the live session (queues, rooms, relayed text, WebRTC signalling, reveal and
 * the post-room actions): ephemeral like call signalling, never queued. The random screens are its users.
 */
export class RandomSignals extends LiveChannel<RandomClientFrame, RandomServerFrame> {
  constructor(send: FrameSender) {
    super(send, 'random talk');
  }

  /** The engine's table of session frames: every random server frame type goes to the listeners. */
  handlers(): Pick<SessionFrameHandlers, RandomServerFrame['type']> {
    const emit = (frame: RandomServerFrame) => this.emit(frame);
    return {
      'random-queue': emit,
      'partner-found': emit,
      'random-matched': emit,
      'random-resumed': emit,
      'chat-message': emit,
      'random-typing': emit,
      'incoming-call': emit,
      'call-accepted': emit,
      'call-ended': emit,
      'random-chat-ended': emit,
      'random-reveal': emit,
      'random-refused': emit,
      'random-action-result': emit,
    };
  }
}
