import { useNavigate } from 'react-router-dom';
import { RANDOM_MSG } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { RandomChatRoom } from './RandomChatRoom';
import {
  ActionResult,
  BackToTalk,
  FindingPanel,
  FocusedBadge,
  RandomError,
  RoomEndedNote,
  StartingOverlay,
} from './RandomParts';
import { PostRoomActions } from './RoomActions';
import { useRandomScreen } from './useRandomScreen';
import './random.css';

/**
 * Random text chat: idle → finding → connected (messages relayed, never stored) → post ('Nice chat!',
 * Start New Chat, Report, Block, Back to Home).
 */
export function RandomChatPage() {
  useDocumentTitle('Random chat');
  const navigate = useNavigate();
  const { state, controller } = useRandomScreen('chat');
  const { phase } = state;
  const home = () => void navigate('/talk');

  return (
    <section className="page random" aria-labelledby="page-title">
      <header className="random__header">
        <BackToTalk />
        <h1 className="page__title" id="page-title">
          Random Chat
        </h1>
        <FocusedBadge filters={state.filters} />
      </header>
      <RandomError state={state} />

      <div className="random-stage">
        {phase === 'idle' || phase === 'starting' ? (
          <div className="random-idle">
            <span className="random-idle__icon" aria-hidden="true">
              <Icon name="chat" size={32} />
            </span>
            <h2 className="random-idle__title">{RANDOM_MSG.chatIdle}</h2>
            <p className="random-idle__text">{RANDOM_MSG.chatIdleSub}</p>
            <RoomEndedNote state={state} />
            <button
              type="button"
              className="button button--primary random-start"
              onClick={() => void controller.start()}
              disabled={phase === 'starting'}
              data-testid="random-start"
            >
              {RANDOM_MSG.startChat}
            </button>
          </div>
        ) : null}

        {phase === 'finding' ? <FindingPanel state={state} controller={controller} /> : null}

        {phase === 'connected' ? (
          <RandomChatRoom state={state} controller={controller} onHome={home} />
        ) : null}

        {phase === 'post' ? (
          <div className="random-post" data-testid="random-post">
            <h2 className="random-post__title">{RANDOM_MSG.niceChat}</h2>
            <RoomEndedNote state={state} />
            <PostRoomActions controller={controller} state={state}>
              <button
                type="button"
                className="button button--primary"
                onClick={() => controller.reset()}
                data-testid="random-start-new"
              >
                {RANDOM_MSG.startNewChat}
              </button>
              <button type="button" className="button button--ghost" onClick={home}>
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
