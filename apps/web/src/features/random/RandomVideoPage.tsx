import { useNavigate } from 'react-router-dom';
import { RANDOM_MSG } from '@campus/protocol';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { StreamMedia } from '../calls/StreamMedia';
import { useSignedInUser } from '../session/session-context';
import { partnerCollege, partnerCourse, type RandomState } from './random-state';
import type { RandomController } from './random-controller';
import {
  ActionResult,
  BackToTalk,
  Elapsed,
  FindingPanel,
  FocusedBadge,
  FreeLeft,
  MatchedNote,
  RandomError,
  RoomEndedNote,
  StartingOverlay,
} from './RandomParts';
import { PostRoomActions } from './RoomActions';
import { useRandomScreen } from './useRandomScreen';
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
  const self = useSignedInUser();
  const navigate = useNavigate();
  const { state, controller } = useRandomScreen('video');
  const { phase } = state;
  const blurred = partnerBlurred(state);

  return (
    <section className="page random" aria-labelledby="page-title">
      <header className="random__header">
        <BackToTalk />
        <h1 className="page__title" id="page-title">
          {RANDOM_MSG.videoTitle}
        </h1>
        <FocusedBadge filters={state.filters} />
      </header>
      <RandomError state={state} />

      <div className="random-videos">
        <figure className="random-video random-video--partner">
          <StreamMedia
            kind="video"
            stream={phase === 'connected' ? state.remoteStream : null}
            className="random-video__media"
            testId="random-remote-video"
            label="Partner's video"
            blurred={blurred}
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

      <div className="random-stage">
        {phase === 'idle' || phase === 'starting' ? (
          <div className="random-idle">
            <RoomEndedNote state={state} />
            <button
              type="button"
              className="button button--primary random-start"
              onClick={() => void controller.start()}
              disabled={phase === 'starting'}
              data-testid="random-start"
            >
              <Icon name="video" size={18} />
              <span>{RANDOM_MSG.startVideo}</span>
            </button>
          </div>
        ) : null}

        {phase === 'finding' ? (
          <FindingPanel state={state} controller={controller} text={RANDOM_MSG.findingRandomUser} />
        ) : null}

        {phase === 'connected' ? <VideoRoomControls state={state} controller={controller} /> : null}
        {phase === 'connected' ? <ActionResult state={state} /> : null}
      </div>

      {phase === 'post' ? (
        <Dialog
          title={RANDOM_MSG.videoSheet}
          onClose={() => controller.reset()}
          variant="sheet"
          size="narrow"
        >
          <div className="random-sheet" data-testid="random-post">
            <RoomEndedNote state={state} />
            <PostRoomActions controller={controller} state={state}>
              <button
                type="button"
                className="button button--primary"
                onClick={() => controller.reset()}
                data-testid="random-done"
              >
                {RANDOM_MSG.done}
              </button>
            </PostRoomActions>
            <ActionResult state={state} />
            <button type="button" className="link-button" onClick={() => void navigate('/talk')}>
              {RANDOM_MSG.backToHome}
            </button>
          </div>
        </Dialog>
      ) : null}
      <StartingOverlay state={state} />
    </section>
  );
}

/** In the room: the partner's college and course, the clocks, Reveal / Blur, Mute and End Call. */
function VideoRoomControls({ state, controller }: { state: RandomState; controller: RandomController }) {
  const { reveal } = state;
  const hint = reveal.both ? null : reveal.partner ? RANDOM_MSG.partnerRevealed : RANDOM_MSG.blurredHint;
  return (
    <div className="random-room" data-testid="random-room">
      <p className="random-meta">
        <span data-testid="random-partner-college">{partnerCollege(state.partner)}</span>
        <span data-testid="random-partner-course">{partnerCourse(state.partner)}</span>
      </p>
      <MatchedNote state={state} />
      <p className="random-clock">
        <Elapsed since={state.startedAt} />
        <FreeLeft endsAt={state.endsAt} />
      </p>
      {hint ? (
        <p className="random-note" role="status" data-testid="random-reveal-hint">
          {hint}
        </p>
      ) : null}
      <div className="call-controls" role="toolbar" aria-label="Call controls">
        <button
          type="button"
          className="button button--secondary random-reveal"
          aria-pressed={reveal.mine}
          onClick={() => controller.setReveal(!reveal.mine)}
          data-testid="random-reveal"
        >
          <Icon name={reveal.mine ? 'eyeOff' : 'eye'} size={18} />
          <span>{reveal.mine ? RANDOM_MSG.blurAgain : RANDOM_MSG.reveal}</span>
        </button>
        <button
          type="button"
          className="call-control"
          aria-label={state.isMuted ? 'Unmute' : 'Mute'}
          aria-pressed={state.isMuted}
          data-on={state.isMuted}
          onClick={() => controller.toggleMute()}
          data-testid="random-mute"
        >
          <Icon name={state.isMuted ? 'micOff' : 'mic'} size={22} />
        </button>
        <button
          type="button"
          className="button button--primary button--danger"
          onClick={() => controller.end()}
          data-testid="random-end"
        >
          <Icon name="phoneOff" size={18} />
          <span>{RANDOM_MSG.endCall}</span>
        </button>
      </div>
      <p className="random-note">{RANDOM_MSG.beKind}</p>
    </div>
  );
}
