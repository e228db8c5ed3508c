import { useNavigate } from 'react-router-dom';
import { RANDOM_MSG } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { StreamMedia } from '../calls/StreamMedia';
import { PartnerCard } from './PartnerCard';
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
import { AddFriendButton, PostRoomActions } from './RoomActions';
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
  const navigate = useNavigate();
  const { state, controller } = useRandomScreen('audio');
  const { phase } = state;

  return (
    <section className="page random" aria-labelledby="page-title">
      <header className="random__header">
        <BackToTalk />
        <h1 className="page__title" id="page-title">
          Random Audio Call
        </h1>
        <FocusedBadge filters={state.filters} />
      </header>
      <RandomError state={state} />

      <div className="random-stage">
        {phase === 'idle' || phase === 'starting' ? (
          <div className="random-idle">
            <span className="random-idle__icon" aria-hidden="true">
              <Icon name="mic" size={32} />
            </span>
            <h2 className="random-idle__title">{RANDOM_MSG.audioIdle}</h2>
            <RoomEndedNote state={state} />
            <button
              type="button"
              className="button button--primary random-start"
              onClick={() => void controller.start()}
              disabled={phase === 'starting'}
              data-testid="random-start"
            >
              <Icon name="phone" size={18} />
              <span>{RANDOM_MSG.startAudio}</span>
            </button>
          </div>
        ) : null}

        {phase === 'finding' ? <FindingPanel state={state} controller={controller} /> : null}

        {phase === 'connected' ? (
          <div className="random-room" data-testid="random-room">
            <p className="random-clock">
              <Elapsed since={state.startedAt} />
              <FreeLeft endsAt={state.endsAt} />
            </p>
            <PartnerCard partner={state.partner} />
            <MatchedNote state={state} />
            <p className="random-media-state" role="status">
              {state.mediaConnected ? 'Connected' : 'Connecting…'}
            </p>
            <StreamMedia kind="audio" stream={state.remoteStream} testId="random-remote-audio" />
            <div className="call-controls" role="toolbar" aria-label="Call controls">
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
        ) : null}

        {phase === 'post' ? (
          <div className="random-post" data-testid="random-post">
            <h2 className="random-post__title">{RANDOM_MSG.greatChat}</h2>
            <RoomEndedNote state={state} />
            <PostRoomActions controller={controller} state={state}>
              <button
                type="button"
                className="button button--primary"
                onClick={() => controller.reset()}
                data-testid="random-start-new"
              >
                {RANDOM_MSG.startNewCall}
              </button>
              <button type="button" className="button button--ghost" onClick={() => void navigate('/talk')}>
                {RANDOM_MSG.backToHome}
              </button>
            </PostRoomActions>
          </div>
        ) : null}
        {phase === 'connected' || phase === 'post' ? <ActionResult state={state} /> : null}
      </div>
      <StartingOverlay state={state} />
    </section>
  );
}
