import { RANDOM_MSG } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { StreamMedia } from '../calls/StreamMedia';
import { PartnerCard } from './PartnerCard';
import type { RandomController } from './random-controller';
import type { RandomState } from './random-state';
import { MatchedNote } from './RandomParts';
import { IdlePanel, RandomScreen, RandomStage } from './RandomScreen';
import { AddFriendButton, PostRoomPanel } from './RoomActions';
import { MuteButton, RoomClock } from './RoomParts';
import { useRandomScreen } from './useRandomScreen';
import '../calls/calls.css';
import './random.css';

/**
 * Random audio call: idle → finding (60 s countdown) → connected (elapsed, 'free left' from the server's
 * deadline, Mute, Add Friend, End) → post-call ('Great chat!', Add Friend, Start New Call, Report, Block,
 * Back to Home).
 */
export function RandomAudioPage() {
  useDocumentTitle('Random audio call');
  const { state, controller } = useRandomScreen('audio');
  const screen = { state, controller };

  return (
    <RandomScreen title="Random Audio Call" state={state} controller={controller}>
      <RandomStage
        {...screen}
        idle={
          <IdlePanel
            {...screen}
            icon="mic"
            title={RANDOM_MSG.audioIdle}
            startLabel={
              <>
                <Icon name="phone" size={18} />
                <span>{RANDOM_MSG.startAudio}</span>
              </>
            }
          />
        }
        room={<AudioRoom {...screen} />}
        post={
          <PostRoomPanel {...screen} title={RANDOM_MSG.greatChat} startNewLabel={RANDOM_MSG.startNewCall} />
        }
      />
    </RandomScreen>
  );
}

/** In the room: the clocks, the partner, whether the audio flows, Mute, Add Friend and End. */
function AudioRoom({ state, controller }: { state: RandomState; controller: RandomController }) {
  return (
    <div className="random-room" data-testid="random-room">
      <RoomClock state={state} />
      <PartnerCard partner={state.partner} />
      <MatchedNote state={state} />
      <p className="random-media-state" role="status">
        {state.mediaConnected ? 'Connected' : 'Connecting…'}
      </p>
      <StreamMedia kind="audio" stream={state.remoteStream} testId="random-remote-audio" />
      <div className="call-controls" role="toolbar" aria-label="Call controls">
        <MuteButton state={state} controller={controller} />
        <AddFriendButton controller={controller} className="button button--secondary" />
        <button
          type="button"
          className="call-control call-control--end"
          aria-label="End"
          onClick={() => controller.end()}
          data-testid="random-end"
        >
          <Icon name="phoneOff" size={22} />
        </button>
      </div>
      <p className="random-note">{RANDOM_MSG.beKind}</p>
    </div>
  );
}
