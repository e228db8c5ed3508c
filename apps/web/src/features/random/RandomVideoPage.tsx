import { useNavigate } from 'react-router-dom';
import { RANDOM_MSG } from '@campus/protocol';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { StreamMedia } from '../calls/StreamMedia';
import { useSignedInUser } from '../session/session-context';
import type { RandomController } from './random-controller';
import type { RandomState } from './random-state';
import { ActionResult, RoomEndedNote } from './RandomParts';
import { IdlePanel, RandomScreen, RandomStage } from './RandomScreen';
import { PostRoomActions } from './RoomActions';
import { useRandomScreen } from './useRandomScreen';
import { VideoRoomControls } from './VideoRoomControls';
import '../calls/calls.css';
import './random.css';

/** The partner's picture is clear only once both revealed and this side has not blurred it again. */
export function partnerBlurred(state: RandomState): boolean {
  return !(state.phase === 'connected' && state.reveal.both && state.reveal.mine);
}

/**
 * Random 1:1 video call. Video starts blurred until both press Reveal (DESIGN, Safety): this device sends a
 * blurred picture until the server says both agreed, and shows the partner's blurred as well. After the
 * call a sheet asks 'What would you like to do?' (Add Friend, Report, Block, Done).
 */
export function RandomVideoPage() {
  useDocumentTitle('Random video call');
  const { state, controller } = useRandomScreen('video');
  const screen = { state, controller };

  return (
    <RandomScreen title={RANDOM_MSG.videoTitle} state={state} controller={controller}>
      <VideoFrames state={state} />
      <RandomStage
        {...screen}
        idle={
          <IdlePanel
            {...screen}
            startLabel={
              <>
                <Icon name="video" size={18} />
                <span>{RANDOM_MSG.startVideo}</span>
              </>
            }
          />
        }
        findingText={RANDOM_MSG.findingRandomUser}
        room={<VideoRoomControls {...screen} />}
      />
      {state.phase === 'post' ? <VideoPostSheet {...screen} /> : null}
    </RandomScreen>
  );
}

/** The partner's video (blurred until both reveal) and this device's own, with their names. */
function VideoFrames({ state }: { state: RandomState }) {
  const self = useSignedInUser();
  const { phase } = state;
  return (
    <div className="random-videos">
      <figure className="random-video random-video--partner">
        <StreamMedia
          kind="video"
          stream={phase === 'connected' ? state.remoteStream : null}
          className="random-video__media"
          testId="random-remote-video"
          label="Partner's video"
          blurred={partnerBlurred(state)}
        />
        <figcaption className="random-video__label">
          {phase === 'connected' ? state.partner?.firstName || 'Your partner' : 'Partner'}
        </figcaption>
      </figure>
      <figure className="random-video random-video--self">
        <StreamMedia
          kind="video"
          stream={state.localStream}
          muted
          className="random-video__media"
          testId="random-local-video"
          label="Your video"
        />
        <figcaption className="random-video__label">
          {self.firstName} (you)
          {phase === 'connected' && !state.reveal.both ? ' · blurred for them' : ''}
        </figcaption>
      </figure>
    </div>
  );
}

/** After the call: the sheet with the actions, Done (back to idle), their answer, and Back to Home. */
function VideoPostSheet({ state, controller }: { state: RandomState; controller: RandomController }) {
  const navigate = useNavigate();
  return (
    <Dialog title={RANDOM_MSG.videoSheet} onClose={() => controller.reset()} variant="sheet" size="narrow">
      <div className="random-sheet" data-testid="random-post">
        <RoomEndedNote state={state} />
        <PostRoomActions
          controller={controller}
          state={state}
          restart={{ label: RANDOM_MSG.done, testId: 'random-done' }}
        />
        <ActionResult state={state} />
        <button type="button" className="link-button" onClick={() => void navigate('/talk')}>
          {RANDOM_MSG.backToHome}
        </button>
      </div>
    </Dialog>
  );
}
